/**
 * asynq's option functions under their Go names (`asynq.Queue("critical")`, `asynq.MaxRetry(3)`
 * ...), each a partial {@link EnqueueOptions}; `client.enqueue(task, Queue('x'), Unique(60))`
 * merges them left to right, a later one winning, as Go's composeOptions does. Durations are
 * seconds where Go takes a time.Duration.
 */
import type { EnqueueOptions } from './options';

/** The queue to enqueue to (default `default`). */
export const Queue = (name: string): EnqueueOptions => ({ queue: name });
/** The task's ID; a second enqueue with it fails with ErrTaskIDConflict. */
export const TaskID = (id: string): EnqueueOptions => ({ taskId: id });
/** Retries before the task is archived (default 25). */
export const MaxRetry = (n: number): EnqueueOptions => ({ maxRetry: n });
/** Longest run of one attempt, in seconds. */
export const Timeout = (seconds: number): EnqueueOptions => ({ timeoutSeconds: seconds });
/** When every attempt must be over. */
export const Deadline = (at: Date): EnqueueOptions => ({ deadline: at });
/** Refuse (ErrDuplicateTask) the same type and payload in the same queue for `ttlSeconds`. */
export const Unique = (ttlSeconds: number): EnqueueOptions => ({ uniqueTtlSeconds: ttlSeconds });
/** Process at `at` (scheduled until then). */
export const ProcessAt = (at: Date): EnqueueOptions => ({ processAt: at });
/** Process `seconds` from now (scheduled until then). */
export const ProcessIn = (seconds: number): EnqueueOptions => ({ processInSeconds: seconds });
/** Keep the completed task (and its result) this many seconds. */
export const Retention = (seconds: number): EnqueueOptions => ({ retentionSeconds: seconds });
/** Add the task to a group, aggregated by a server with a GroupAggregator. */
export const Group = (key: string): EnqueueOptions => ({ group: key });
