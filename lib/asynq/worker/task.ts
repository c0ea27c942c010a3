/**
 * What a handler receives: the task (type, payload, headers, result writer) and a context
 * carrying the task's identity and an AbortSignal, the counterparts of asynq's `*Task` and
 * `context.Context` with its GetTaskID/GetQueueName/GetRetryCount/GetMaxRetry helpers.
 */

/** Writes the task's result into its hash (`HSET result`); kept only when retention > 0. */
export interface ResultWriter {
  readonly taskId: string;
  /** Resolves with the number of bytes written; rejects once the task's context is done. */
  write(data: Uint8Array | string): Promise<number>;
}

/** The task a handler processes (asynq's `*Task`). */
export interface Task {
  readonly type: string;
  readonly payload: Uint8Array;
  readonly headers: Readonly<Record<string, string>>;
  /** Absent for tasks built outside a server (tests, `mux.handler(task)` lookups). */
  readonly resultWriter?: ResultWriter;
}

/** What asynq puts in a handler's `context.Context`, plus the signal for its Done channel. */
export interface TaskContext {
  readonly taskId: string;
  readonly queue: string;
  /** Attempts that already failed (asynq's GetRetryCount: the msg's `retried`). */
  readonly retryCount: number;
  /** asynq's GetMaxRetry: the msg's `retry`. */
  readonly maxRetry: number;
  /** The processing deadline (timeout/deadline rule of asynq's processor). */
  readonly deadline: Date;
  /**
   * Aborted at the deadline (reason: `context deadline exceeded`), on cancellation through
   * asynq:cancel (`context canceled`), and once the server has stopped waiting for the task.
   */
  readonly signal: AbortSignal;
}

/** A task for tests and lookups: only the type is required. */
export function newTask(type: string, payload: Uint8Array = new Uint8Array(), headers: Record<string, string> = {}): Task {
  return { type, payload, headers };
}
