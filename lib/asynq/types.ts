/**
 * Domain types of the queue core. Times are `Date | null` (null where asynq stores 0 or Go's
 * zero time), durations are whole seconds, and bytes stay bytes: a payload is never turned
 * into a string here.
 */

/** A decoded asynq `TaskMessage` (protobuf field numbers in proto/asynq.proto). */
export interface TaskMessage {
  type: string;
  /** Raw payload bytes. The wire cannot tell Go's nil from empty: both decode to length 0. */
  payload: Uint8Array;
  id: string;
  queue: string;
  /** MaxRetry. */
  retry: number;
  retried: number;
  errorMsg: string;
  /** Per-attempt timeout in seconds; 0 = none. */
  timeout: number;
  /** Absolute deadline in Unix seconds; 0 = none. */
  deadline: number;
  /** Full unique-lock key, or '' when the task is not unique. */
  uniqueKey: string;
  /** Unix seconds of the last failure; 0 = never. */
  lastFailedAt: number;
  /** Seconds to keep the task after success. */
  retention: number;
  /** Unix seconds of success; 0 = not completed. */
  completedAt: number;
  /** Aggregation group name, or ''. */
  groupKey: string;
  headers: Record<string, string>;
}

/** A server process as its heartbeat describes it. */
export interface ServerInfo {
  host: string;
  pid: number;
  serverId: string;
  concurrency: number;
  queues: Record<string, number>;
  strictPriority: boolean;
  status: string;
  startedAt: Date | null;
  activeWorkerCount: number;
  /**
   * The patterns the server's ServeMux registers, when it publishes them (this core's task
   * server does; Go servers cannot): see published-patterns.ts. Absent when not published.
   */
  patterns?: string[];
}

/** A task a server is processing right now. */
export interface WorkerInfo {
  host: string;
  pid: number;
  serverId: string;
  taskId: string;
  taskType: string;
  taskPayload: Uint8Array;
  queue: string;
  startedAt: Date | null;
  deadline: Date | null;
}

/** A periodic task registered with a scheduler. */
export interface SchedulerEntry {
  id: string;
  spec: string;
  taskType: string;
  taskPayload: Uint8Array;
  /** Each option in Go's `String()` form, e.g. `MaxRetry(3)`, `Queue("cron")`. */
  enqueueOptions: string[];
  nextEnqueueAt: Date | null;
  /** null when the entry never ran (Go's zero time on the wire). */
  prevEnqueueAt: Date | null;
}

/** One enqueue done by a scheduler entry. */
export interface SchedulerEnqueueEvent {
  taskId: string;
  enqueuedAt: Date | null;
}

/** Sizes and counters of one queue at one moment. */
export interface QueueStats {
  queue: string;
  paused: boolean;
  pausedSince: Date | null;
  /** Sum of every state, completed and aggregating included, as asynq counts it. */
  size: number;
  pending: number;
  active: number;
  scheduled: number;
  retry: number;
  archived: number;
  completed: number;
  aggregating: number;
  /** false when the queue has so many groups that `aggregating` is a sample estimate. */
  aggregatingExact: boolean;
  groups: number;
  /** Today's (UTC) counters. */
  processed: number;
  failed: number;
  processedTotal: number;
  failedTotal: number;
  /** Age of the oldest pending task in milliseconds (0 when none, or when it has no pending_since). */
  latencyMs: number;
  memoryUsageBytes: number | null;
  timestamp: Date;
  /**
   * Why the queue could not be read (its counts are then 0), null when it was: on Redis
   * Cluster a queue whose name starts with `}` has keys in many slots and is listed this way.
   */
  problem: string | null;
  /**
   * When the queue's own data is malformed (a key of the wrong type, a counter that is not a
   * number), the first key found so, the type asynq writes there and what Redis holds instead;
   * `problem` then says the same in words. null for a readable queue.
   */
  unreadable: UnreadableKey | null;
}

/** A key whose content is not what asynq writes there. */
export interface UnreadableKey {
  key: string;
  /** What asynq writes there: `list`, `zset`, `string`, `integer string`, `hash`, `set`. */
  expected: string;
  /** Redis' TYPE of the key, or for a string the value found, e.g. `string "notanumber"`. */
  found: string;
}

/** One day of a queue's counters. */
export interface DailyStats {
  date: string;
  processed: number;
  failed: number;
}

/** A unique lock as found in Redis beside the task that names it. */
export interface UniqueLock {
  key: string;
  /** Seconds left; null when the lock key is gone, -1 when it has no expiry. */
  ttlSeconds: number | null;
  /** The task ID stored in the lock, or null when the lock is gone. */
  holderId: string | null;
  ownedByThisTask: boolean;
}

/**
 * A task as the inspector sees it. When its record is missing or undecodable, `message` is
 * null and `problem` says why: the task is still listed, never silently dropped.
 */
export interface TaskInfo {
  id: string;
  queue: string;
  state: string;
  message: TaskMessage | null;
  problem: string | null;
  nextProcessAt: Date | null;
  result: Uint8Array | null;
  /** Active task whose lease has expired: its worker is probably gone. */
  isOrphaned: boolean;
  uniqueLock: UniqueLock | null;
  /** Unix nanoseconds when the task became pending (decimal string: it exceeds 2^53). */
  pendingSince: string | null;
}

/** One page of a state's tasks. */
export interface TaskPage {
  tasks: TaskInfo[];
  total: number;
}

/** A server with the tasks it is working on. */
export interface ServerWithWorkers extends ServerInfo {
  workers: WorkerInfo[];
}

/** A scheduler's registered entry, with the scheduler that heartbeats it. */
export interface SchedulerEntryInfo extends SchedulerEntry {
  schedulerId: string;
}
