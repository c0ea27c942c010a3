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
  /** Why this queue cannot be read (e.g. a name that breaks Redis Cluster slotting), else null. */
  problem: z.string().nullable(),
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
