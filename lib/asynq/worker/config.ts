/**
 * A task server's settings with asynq's defaults. Durations are milliseconds unless named
 * otherwise; every interval is configurable so tests need not wait asynq's real periods.
 */
import { systemClock, type Clock } from '../clock';
import type { NewTask, EnqueueOptions } from '../client/options';
import { cleanQueues } from './queue-order';
import { defaultRetryDelay, type RetryDelayFunc } from './retry-delay';
import type { Task, TaskContext } from './task';

/** Builds the one task that replaces a group's tasks (asynq's GroupAggregator). */
export type GroupAggregator = (group: string, tasks: Task[]) => (NewTask & { options?: EnqueueOptions }) | Promise<NewTask & { options?: EnqueueOptions }>;

/** Where the server reports what it cannot throw (Redis errors in loops, handler hooks). */
export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

/** Settings of a {@link Server}; all optional. */
export interface ServerConfig {
  /** Tasks processed at once (default 10; asynq defaults to the CPU count). */
  concurrency?: number;
  /** Queue → priority (default `{ default: 1 }`); blank names and priorities ≤ 0 are dropped. */
  queues?: Record<string, number>;
  /** Always empty higher-priority queues first (default false: weighted random order). */
  strictPriority?: boolean;
  /** Seconds before the next attempt (default: asynq's n⁴ + 15 + rand[0,30) × (n + 1)). */
  retryDelay?: RetryDelayFunc;
  /** Whether an error counts as a failure (retried + 1, failed counter); default: every error. */
  isFailure?: (err: unknown) => boolean;
  /** Called for every failed attempt, before the task is retried or archived. */
  errorHandler?: (ctx: TaskContext, task: Task, err: unknown) => void;
  /** How long shutdown waits for running tasks before requeueing them (default 8000). */
  shutdownTimeoutMs?: number;
  /** Idle poll period when every queue is empty; the sleep is half of it plus jitter (default 1000). */
  taskCheckIntervalMs?: number;
  /** Heartbeat period (default 5000); records live twice as long. */
  heartbeatIntervalMs?: number;
  /** Forwarding of due scheduled and retry tasks (default 5000). */
  delayedTaskCheckIntervalMs?: number;
  /** Deleting expired completed tasks (default 8000) and the batch size per call (default 100). */
  janitorIntervalMs?: number;
  janitorBatchSize?: number;
  /** Lease-expiry recovery period (default 60000). */
  recovererIntervalMs?: number;
  /** Group aggregation: off unless an aggregator is given. */
  groupAggregator?: GroupAggregator;
  /** Wait after a group's newest task (default 60000; at least 1000, as asynq requires). */
  groupGracePeriodMs?: number;
  /** Longest wait since a group's oldest task (default 0 = no limit). */
  groupMaxDelayMs?: number;
  /** Aggregate as soon as a group has this many tasks (default 0 = no limit). */
  groupMaxSize?: number;
  /** Where Redis timestamps come from (default the system clock). */
  clock?: Clock;
  logger?: Logger;
}

/** A config with every default applied. */
export type ResolvedConfig = Required<Omit<ServerConfig, 'groupAggregator' | 'errorHandler'>> &
  Pick<ServerConfig, 'groupAggregator' | 'errorHandler'>;

const consoleLogger: Logger = {
  info: (m) => console.log(`asynq: ${m}`),
  warn: (m) => console.warn(`asynq: ${m}`),
  error: (m) => console.error(`asynq: ${m}`),
};

/** Applies the defaults. Throws `GroupGracePeriod cannot be less than a second` like asynq. */
export function resolveConfig(c: ServerConfig): ResolvedConfig {
  const grace = c.groupGracePeriodMs || 60_000;
  if (grace < 1000) throw new Error('GroupGracePeriod cannot be less than a second');
  return {
    concurrency: c.concurrency && c.concurrency >= 1 ? Math.trunc(c.concurrency) : 10,
    queues: cleanQueues(c.queues),
    strictPriority: c.strictPriority ?? false,
    retryDelay: c.retryDelay ?? defaultRetryDelay,
    isFailure: c.isFailure ?? (() => true),
    errorHandler: c.errorHandler,
    shutdownTimeoutMs: c.shutdownTimeoutMs || 8000,
    taskCheckIntervalMs: c.taskCheckIntervalMs || 1000,
    heartbeatIntervalMs: c.heartbeatIntervalMs || 5000,
    delayedTaskCheckIntervalMs: c.delayedTaskCheckIntervalMs || 5000,
    janitorIntervalMs: c.janitorIntervalMs || 8000,
    janitorBatchSize: c.janitorBatchSize || 100,
    recovererIntervalMs: c.recovererIntervalMs || 60_000,
    groupAggregator: c.groupAggregator,
    groupGracePeriodMs: grace,
    groupMaxDelayMs: c.groupMaxDelayMs ?? 0,
    groupMaxSize: c.groupMaxSize ?? 0,
    clock: c.clock ?? systemClock,
    logger: c.logger ?? consoleLogger,
  };
}
