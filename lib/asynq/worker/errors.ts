/**
 * The errors a handler returns (throws) to steer what happens to its task, and the errors the
 * server itself fails a task with, all with asynq's exact texts: the text becomes the task's
 * `error_msg`, which Go's Inspector and dashboards show as the last error.
 */

/** An Error whose identity is what matters (Go's sentinel `errors.New` values). */
class Sentinel extends Error {
  constructor(message: string, name: string) {
    super(message);
    this.name = name;
  }
}

/** Throw it (or an error whose `cause` chain holds it) to archive the task at once. */
export const SkipRetry: Error = new Sentinel('skip retry for the task', 'SkipRetry');
/** Throw it (or wrap it) to drop the task without retry or archive: it is deleted as done. */
export const RevokeTask: Error = new Sentinel('revoke task', 'RevokeTask');
/** The error a task fails with when its lease ran out (the recoverer's text). */
export const ErrLeaseExpired: Error = new Sentinel('asynq: task lease expired', 'ErrLeaseExpired');

/** Go's `context.DeadlineExceeded`: the signal's reason at the task's deadline. */
export class DeadlineExceededError extends Error {
  override readonly name = 'DeadlineExceededError';
  constructor() {
    super('context deadline exceeded');
  }
}

/** Go's `context.Canceled`: the signal's reason after a cancel request or server abort. */
export class CanceledError extends Error {
  override readonly name = 'CanceledError';
  constructor() {
    super('context canceled');
  }
}

/** Go's `errors.Is`: whether `target` is `err` or anywhere in its `cause` chain. */
export function errorIs(err: unknown, target: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = err; e !== undefined && e !== null && !seen.has(e); ) {
    if (e === target) return true;
    seen.add(e);
    e = e instanceof Error ? e.cause : undefined;
  }
  return false;
}

/**
 * The text stored as the task's last error: an Error's message; anything else thrown is
 * turned into a string, so even `throw 42` fails the task instead of crashing the server.
 */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'string') return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}
