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

/**
 * `GET /api/queues`: every queue, or with `total` set one page of them. `page`, `size` and
 * `total` are there only when the answer is a page: asked for (`?page`, `?size`, `?search`,
 * `?sort`) or, past QUEUE_LIST_DEFAULT_SIZE queues, the first page by name.
 */
export const queueListSchema = z.object({
  queues: z.array(queueStatsSchema),
  page: z.number().optional(),
  size: z.number().optional(),
  /** Queues that match `search` (all of them without it), of which `queues` is one page. */
  total: z.number().optional(),
});
export type QueueListDto = z.infer<typeof queueListSchema>;

/** Queues in an answer that asks for no page: every one up to this many, else the first page. */
export const QUEUE_LIST_DEFAULT_SIZE = 1000;
/** The columns `GET /api/queues?sort=` orders by; `latency` is the oldest pending task's age. */
export const QUEUE_SORT_KEYS = [
  'name', 'size', 'pending', 'active', 'scheduled', 'retry', 'archived', 'completed', 'aggregating',
  'processed', 'failed', 'latency',
] as const;
export type QueueSortKey = (typeof QUEUE_SORT_KEYS)[number];

export const queueListQuery = z.object({
  page: intParam('page', 1).optional(),
  size: intParam('size', 1, QUEUE_LIST_DEFAULT_SIZE).optional(),
  /** Queues whose name contains this, case-insensitive. */
  search: z.string().max(256, 'search must be at most 256 characters').optional(),
  sort: z.enum(QUEUE_SORT_KEYS, { error: `sort must be one of ${QUEUE_SORT_KEYS.join(', ')}` }).optional(),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).optional(),
});
export type QueueListQuery = z.infer<typeof queueListQuery>;

export const historyQuery = z.object({ days: intParam('days', 1, 90).default(7) });

export const historySchema = z.object({
  days: z.array(z.object({ date: z.string(), processed: z.number(), failed: z.number() })),
});
export type HistoryDto = z.infer<typeof historySchema>;

export const groupListSchema = z.object({
  groups: z.array(z.object({ group: z.string(), size: z.number() })),
});
export type GroupListDto = z.infer<typeof groupListSchema>;
