/**
 * Queue statistics, history and groups.
 */
import { z } from 'zod';
import { intParam, isoTime } from './common';

export const queueStatsSchema = z.object({
  queue: z.string(),
  paused: z.boolean(),
  pausedSince: isoTime,
  size: z.number(),
  pending: z.number(),
  active: z.number(),
  scheduled: z.number(),
  retry: z.number(),
  archived: z.number(),
  completed: z.number(),
  aggregating: z.number(),
  /** false when a queue has so many groups that `aggregating` is a sampled estimate. */
  aggregatingExact: z.boolean(),
  groups: z.number(),
  processed: z.number(),
  failed: z.number(),
  processedTotal: z.number(),
  failedTotal: z.number(),
  latencySeconds: z.number(),
  memoryUsageBytes: z.number().nullable(),
  timestamp: z.string(),
  /**
   * Why this queue cannot be read (a name that breaks Redis Cluster slotting, a key of the wrong
   * type, a counter that is not a number), else null. Its counts are then 0.
   */
  problem: z.string().nullable(),
  /** For malformed data: the first bad key, the type asynq writes there and what Redis holds. */
  unreadable: z.object({ key: z.string(), expected: z.string(), found: z.string() }).nullable(),
});
export type QueueStatsDto = z.infer<typeof queueStatsSchema>;

export const queueListSchema = z.object({ queues: z.array(queueStatsSchema) });
export type QueueListDto = z.infer<typeof queueListSchema>;

export const historyQuery = z.object({ days: intParam('days', 1, 90).default(7) });

export const historySchema = z.object({
  days: z.array(z.object({ date: z.string(), processed: z.number(), failed: z.number() })),
});
export type HistoryDto = z.infer<typeof historySchema>;

export const groupListSchema = z.object({
  groups: z.array(z.object({ group: z.string(), size: z.number() })),
});
export type GroupListDto = z.infer<typeof groupListSchema>;
