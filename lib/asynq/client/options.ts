/**
 * asynq's client options and their validation, with asynq's exact error texts
 * (client.go composeOptions): the same input is refused here and by a Go client alike.
 */
import { invalidArgument } from '../errors';
import { assertWritableQueueName } from '../queue-name';

/** A task to enqueue. `payload: null` is Go's nil, which has its own unique key. */
export interface NewTask {
  type: string;
  payload: Uint8Array | null;
  headers?: Record<string, string>;
}

export interface EnqueueOptions {
  queue?: string;
  taskId?: string;
  /** Default 25; a negative value counts as 0, as in asynq. */
  maxRetry?: number;
  /** Stored truncated to whole seconds, a negative one too, as asynq stores it. */
  timeoutSeconds?: number;
  deadline?: Date | null;
  uniqueTtlSeconds?: number;
  processAt?: Date;
  processInSeconds?: number;
  /** Stored truncated to whole seconds, a negative one too (then nothing is kept), as asynq. */
  retentionSeconds?: number;
  group?: string;
  /** Merged over the task's own headers, later values winning. */
  headers?: Record<string, string>;
}

export interface ComposedOptions {
  queue: string;
  taskId: string;
  retry: number;
  /** Whole seconds stored in the msg (0 = none; negative as given). */
  timeout: number;
  /** Unix seconds (0 = none). */
  deadline: number;
  /** Seconds; 0 = not unique. */
  uniqueTtl: number;
  processAt: Date;
  retention: number;
  group: string;
  headers: Record<string, string>;
}

/** asynq's timeout when a task sets neither a timeout nor a deadline: 30 minutes. */
export const DEFAULT_TIMEOUT_SECONDS = 1800;
export const DEFAULT_MAX_RETRY = 25;

const blank = (s: string) => s.trim().length === 0;

function assertFinite(op: string, field: string, v: number | undefined): void {
  if (v !== undefined && !Number.isFinite(v)) throw invalidArgument(op, field, `${field} must be a finite number`);
}

/**
 * The last queue name that passed the writable-name rule: a client enqueues to a few queues
 * many times, and the rule's scan and UTF-8 length cost more than the rest of the options.
 */
let lastWritableQueue: string | undefined;

/**
 * Applies defaults and asynq's rules. Throws invalid_argument naming the option; `now` is when
 * ProcessIn counts from.
 */
export function composeOptions(op: string, task: NewTask, o: EnqueueOptions, now: Date, newId: () => string): ComposedOptions {
  if (blank(task.type)) throw invalidArgument(op, 'type', 'task typename cannot be empty');
  const queue = o.queue ?? 'default';
  if (queue !== lastWritableQueue) {
    if (blank(queue)) throw invalidArgument(op, 'queue', 'queue name must contain one or more characters');
    // Stricter than asynq: a name with a brace would write keys into another queue's key space.
    assertWritableQueueName(op, 'queue', queue);
    lastWritableQueue = queue;
  }
  if (o.taskId !== undefined && blank(o.taskId)) throw invalidArgument(op, 'taskId', 'task ID cannot be empty');
  if (o.uniqueTtlSeconds !== undefined && !(o.uniqueTtlSeconds >= 1)) {
    throw invalidArgument(op, 'uniqueTtlSeconds', 'Unique TTL cannot be less than 1s');
  }
  if (o.group !== undefined && blank(o.group)) throw invalidArgument(op, 'group', 'group key cannot be empty');
  assertFinite(op, 'maxRetry', o.maxRetry);
  assertFinite(op, 'timeoutSeconds', o.timeoutSeconds);
  assertFinite(op, 'retentionSeconds', o.retentionSeconds);
  assertFinite(op, 'processInSeconds', o.processInSeconds);
  // As asynq: a Timeout or Retention is stored as given, truncated to whole seconds, negative
  // included (a negative timeout puts the deadline in the past: servers fail the task at once
  // with "context deadline exceeded"; a negative retention keeps nothing). Any non-zero timeout
  // counts as set, so a sub-second one stores 0 without the 30-minute default. Only MaxRetry
  // is clamped at 0, by asynq's MaxRetry option itself.
  const timeout = Math.trunc(o.timeoutSeconds ?? 0) || 0;
  const deadline = o.deadline ? Math.floor(o.deadline.getTime() / 1000) : 0;
  const timeoutGiven = o.timeoutSeconds !== undefined && Math.trunc(o.timeoutSeconds * 1e9) !== 0;
  const processAt =
    o.processInSeconds !== undefined ? new Date(now.getTime() + o.processInSeconds * 1000) : (o.processAt ?? now);
  return {
    queue,
    taskId: o.taskId ?? newId(),
    retry: Math.max(0, Math.trunc(o.maxRetry ?? DEFAULT_MAX_RETRY)),
    timeout: !timeoutGiven && deadline === 0 ? DEFAULT_TIMEOUT_SECONDS : timeout,
    deadline,
    uniqueTtl: o.uniqueTtlSeconds ?? 0,
    processAt,
    retention: Math.trunc(o.retentionSeconds ?? 0) || 0,
    group: o.group ?? '',
    headers: { ...(task.headers ?? {}), ...(o.headers ?? {}) },
  };
}
