/**
 * Tasks: the listing query, the task object and its unique lock.
 */
import { z } from 'zod';
import { bytesEncoding, isoTime, pageFields, pageQuery, payloadFields, queueName } from './common';

export const taskStateSchema = z.enum(
  ['pending', 'active', 'scheduled', 'retry', 'archived', 'completed', 'aggregating'],
  { error: 'state must be one of pending, active, scheduled, retry, archived, completed, aggregating' },
);
export type TaskStateDto = z.infer<typeof taskStateSchema>;

export const taskListQuery = z.object({
  state: taskStateSchema,
  ...pageQuery(100, 20),
  group: z.string().optional(),
});
export type TaskListQuery = z.infer<typeof taskListQuery>;

export const taskParams = z.object({ qname: queueName, taskId: z.string().min(1, 'task ID cannot be empty') });

export const uniqueLockSchema = z.object({
  key: z.string(),
  /** null when the lock key is gone, -1 when it never expires. */
  ttlSeconds: z.number().nullable(),
  holderId: z.string().nullable(),
  ownedByThisTask: z.boolean(),
});
export type UniqueLockDto = z.infer<typeof uniqueLockSchema>;

export const taskSchema = z.object({
  id: z.string(),
  queue: z.string(),
  type: z.string(),
  ...payloadFields,
  payloadSize: z.number(),
  payloadTruncated: z.boolean(),
  headers: z.record(z.string(), z.string()),
  state: z.string(),
  maxRetry: z.number(),
  retried: z.number(),
  lastError: z.string(),
  /**
   * Whether lastError is exactly the error asynq's not-found handler stores for this task's type
   * (decided once, by the core's recogniser; the browser never parses error texts).
   */
  handlerNotFound: z.boolean(),
  lastFailedAt: isoTime,
  timeoutSeconds: z.number(),
  deadline: isoTime,
  group: z.string().nullable(),
  nextProcessAt: isoTime,
  /** When a pending task became pending (asynq's pending_since); null when unknown. */
  pendingSince: isoTime,
  completedAt: isoTime,
  retentionSeconds: z.number(),
  /**
   * When asynq deletes a completed task: completed_at + retention, the score asynq's
   * MarkAsComplete gives it in the completed zset (its forwarder deletes by that score).
   * null in every other state.
   */
  expiresAt: isoTime,
  result: z.string().nullable(),
  resultEncoding: bytesEncoding.nullable(),
  isOrphaned: z.boolean(),
  uniqueKey: z.string().nullable(),
  uniqueLock: uniqueLockSchema.nullable(),
  /**
   * The unique TTL the task was enqueued with, read back from its lock (asynq does not keep
   * it): null when the lock no longer tells (see the core's uniqueTtlFromLock).
   */
  uniqueTtlSeconds: z.number().nullable(),
  /** Why the task record could not be read; only id, queue and state are meaningful then. */
  problem: z.string().nullable(),
});
export type TaskDto = z.infer<typeof taskSchema>;

export const taskListSchema = z.object({
  tasks: z.array(taskSchema),
  ...pageFields,
});
export type TaskListDto = z.infer<typeof taskListSchema>;
