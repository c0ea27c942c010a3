/**
 * The core's one error type, after asynq's Op + Code model: `code` says what class of failure
 * it is (NOT_FOUND, FAILED_PRECONDITION, ...), `kind` names the exact case for callers that
 * branch on it, and `message` keeps asynq's own wording where asynq has one.
 */
import { brandErrorClass } from './error-brand';

export type ErrorCode =
  | 'NOT_FOUND'
  | 'FAILED_PRECONDITION'
  | 'ALREADY_EXISTS'
  | 'INVALID_ARGUMENT'
  | 'UNAVAILABLE'
  | 'INTERNAL';

export type ErrorKind =
  | 'queue_not_found'
  | 'task_not_found'
  | 'invalid_argument'
  | 'duplicate_task'
  | 'task_id_conflict'
  | 'failed_precondition'
  | 'redis_unavailable'
  | 'internal';

export class AsynqError extends Error {
  override readonly name = 'AsynqError';
  constructor(
    readonly code: ErrorCode,
    readonly kind: ErrorKind,
    message: string,
    readonly op: string,
    readonly details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
brandErrorClass(AsynqError, 'AsynqError');

/** asynq's QueueNotFoundError text: `queue "<q>" does not exist`. */
export function queueNotFound(op: string, qname: string): AsynqError {
  return new AsynqError('NOT_FOUND', 'queue_not_found', `queue ${goQuote(qname)} does not exist`, op, {
    queue: qname,
  });
}

/** asynq's TaskNotFoundError text: `cannot find task with id=<id> in queue "<q>"`. */
export function taskNotFound(op: string, qname: string, id: string): AsynqError {
  return new AsynqError(
    'NOT_FOUND',
    'task_not_found',
    `cannot find task with id=${id} in queue ${goQuote(qname)}`,
    op,
    { queue: qname, id },
  );
}

/** A caller-supplied value broke a rule; `field` names it for the HTTP layer. */
export function invalidArgument(op: string, field: string, message: string): AsynqError {
  return new AsynqError('INVALID_ARGUMENT', 'invalid_argument', message, op, { field });
}

/**
 * Go's `%q` for the strings asynq quotes in its messages: JSON quoting matches it for every
 * printable character; Go escapes a few more non-printables the same way JSON does.
 */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** A state rule forbids the operation (asynq's FAILED_PRECONDITION), with asynq's text. */
export function failedPrecondition(op: string, message: string, details: Record<string, unknown> = {}): AsynqError {
  return new AsynqError('FAILED_PRECONDITION', 'failed_precondition', message, op, details);
}

/** Whether `err` is the core's error, optionally of one kind. */
export function isAsynqError(err: unknown, kind?: ErrorKind): err is AsynqError {
  return err instanceof AsynqError && (kind === undefined || err.kind === kind);
}
