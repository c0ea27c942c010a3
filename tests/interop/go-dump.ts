/**
 * The JSON the Go interop program (tests/go, real github.com/hibiken/asynq) prints for
 * `dump`: Go's Inspector view of a database, the oracle the interop suites compare ours with.
 * Times are Unix seconds, 0 for Go's zero time; bytes are base64, null for a nil slice
 * (tests/go/dump.go, dump_runtime.go, taskjson.go).
 */

export interface GoTask {
  id: string;
  queue: string;
  type: string;
  payloadBase64: string | null;
  state: string;
  maxRetry: number;
  retried: number;
  lastError: string;
  lastFailedAt: number;
  timeoutSeconds: number;
  deadline: number;
  group: string;
  nextProcessAt: number;
  completedAt: number;
  retentionSeconds: number;
  resultBase64: string | null;
  /** null: the release has no task headers (before v0.26), so Go cannot see any. */
  headers: Record<string, string> | null;
  isOrphaned: boolean;
}

export interface GoQueueInfo {
  queue: string;
  paused: boolean;
  size: number;
  pending: number;
  active: number;
  scheduled: number;
  retry: number;
  archived: number;
  completed: number;
  aggregating: number;
  groups: number;
  processed: number;
  failed: number;
  processedTotal: number;
  failedTotal: number;
  latencyNs: number;
  memoryUsage: number;
  timestamp: number;
}

export interface GoQueueTasks {
  pending: GoTask[];
  active: GoTask[];
  scheduled: GoTask[];
  retry: GoTask[];
  archived: GoTask[];
  completed: GoTask[];
  aggregating: Record<string, GoTask[]>;
}

export interface GoWorker {
  taskId: string;
  taskType: string;
  queue: string;
  payloadBase64: string | null;
  startedAt: number;
  deadline: number;
  /** Nanoseconds within the second, as Go read them. */
  startedAtNanos: number;
  deadlineNanos: number;
}

export interface GoServer {
  id: string;
  host: string;
  pid: number;
  concurrency: number;
  queues: Record<string, number>;
  strictPriority: boolean;
  status: string;
  startedAt: number;
  /** Nanoseconds within the second, as Go read them. */
  startedAtNanos: number;
  workers: GoWorker[];
}

export interface GoSchedulerEntry {
  id: string;
  spec: string;
  taskType: string;
  payloadBase64: string | null;
  options: string[];
  nextEnqueueAt: number;
  prevEnqueueAt: number;
}

export interface GoSchedulerEvent {
  taskId: string;
  enqueuedAt: number;
  /** Nanoseconds within the second, as Go read them. */
  enqueuedAtNanos: number;
}

export interface GoDump {
  queues: string[];
  queueInfo: Record<string, GoQueueInfo>;
  history: Record<string, { date: string; processed: number; failed: number }[]>;
  groups: Record<string, { group: string; size: number }[]>;
  tasks: Record<string, GoQueueTasks>;
  taskInfo: Record<string, Record<string, GoTask>>;
  servers: GoServer[];
  schedulerEntries: GoSchedulerEntry[];
  schedulerEvents: Record<string, GoSchedulerEvent[]>;
}

/** The list states of a dump, in the order the test walks them (aggregating is per group). */
export const LIST_STATES = ['pending', 'active', 'scheduled', 'retry', 'archived', 'completed'] as const;
