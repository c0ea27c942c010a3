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
  | 'scheduler_entry_not_found'
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

/**
 * asynq's Inspector words for a task action (RunTask, ArchiveTask, DeleteTask,
 * UpdateTaskPayload) on a queue that does not exist: its sentinel ErrQueueNotFound, which it
 * returns in place of the internal error ({@link queueNotFound}). Same code and details.
 */
export function actionQueueNotFound(op: string, qname: string): AsynqError {
  return new AsynqError('NOT_FOUND', 'queue_not_found', 'queue not found', op, { queue: qname });
}

/** The same for a task that does not exist: ErrTaskNotFound in place of {@link taskNotFound}. */
export function actionTaskNotFound(op: string, qname: string, id: string): AsynqError {
  return new AsynqError('NOT_FOUND', 'task_not_found', 'task not found', op, { queue: qname, id });
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

/**
 * A Go sentinel error (`errors.New`): matched by identity with `errorIs`, as Go's `errors.Is`
 * matches it, never by its text.
 */
function sentinel(message: string, name: string): Error {
  const err = new Error(message);
  err.name = name;
  return err;
}

/** asynq.ErrDuplicateTask: the `cause` of every enqueue refused because its unique lock is held. */
export const ErrDuplicateTask: Error = sentinel('task already exists', 'ErrDuplicateTask');
/** asynq.ErrTaskIDConflict: the `cause` of every enqueue refused because its task ID is taken. */
export const ErrTaskIDConflict: Error = sentinel('task ID conflicts with another task', 'ErrTaskIDConflict');

/** An enqueue refused as a duplicate; `errorIs(err, ErrDuplicateTask)` holds. */
export function duplicateTaskError(op: string, details: Record<string, unknown>): AsynqError {
  return new AsynqError('ALREADY_EXISTS', 'duplicate_task', ErrDuplicateTask.message, op, details, { cause: ErrDuplicateTask });
}

/** An enqueue refused for its task ID; `errorIs(err, ErrTaskIDConflict)` holds. */
export function taskIdConflictError(op: string, details: Record<string, unknown>): AsynqError {
  return new AsynqError('ALREADY_EXISTS', 'task_id_conflict', ErrTaskIDConflict.message, op, details, { cause: ErrTaskIDConflict });
}

/** A caller-supplied value broke a rule; `field` names it for the HTTP layer. */
export function invalidArgument(op: string, field: string, message: string): AsynqError {
  return new AsynqError('INVALID_ARGUMENT', 'invalid_argument', message, op, { field });
}

const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const GO_SHORT_ESCAPES: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '"': '\\"', '\\': '\\\\' };

/**
 * Go's `%q` (strconv.Quote) exactly, for every string asynq quotes in its messages (queue names,
 * task types): Go's printable characters (letters, marks, numbers, punctuation, symbols, ASCII
 * space) stay, the rest become \a \b … \xNN \uNNNN \UNNNNNNNN. JSON quoting differs from it
 * for DEL, NBSP, zero-width and other format characters, so a Go server's stored error and ours
 * are compared byte for byte only through this. A lone surrogate, which UTF-8 cannot carry, is
 * quoted as the U+FFFD a Go server would have received for it.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const c of s) {
    const cp = c.codePointAt(0)!;
    const ch = cp >= 0xd800 && cp <= 0xdfff ? '\ufffd' : c;
    const short = GO_SHORT_ESCAPES[ch];
    if (short) out += short;
    else if (GO_PRINTABLE.test(ch)) out += ch;
    else if (cp < 0x80) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** A state rule forbids the operation (asynq's FAILED_PRECONDITION), with asynq's text. */
export function failedPrecondition(op: string, message: string, details: Record<string, unknown> = {}): AsynqError {
  return new AsynqError('FAILED_PRECONDITION', 'failed_precondition', message, op, details);
}

/** Whether `err` is the core's error, optionally of one kind. */
export function isAsynqError(err: unknown, kind?: ErrorKind): err is AsynqError {
  return err instanceof AsynqError && (kind === undefined || err.kind === kind);
}
