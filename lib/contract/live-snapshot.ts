/**
 * The live snapshot: what every open tab shows of Redis right now (the sidebar's queues, the
 * Redis status and banner, the overview's totals and one page of its queue table), computed once
 * per tick on the server and sent as the same bytes to every viewer (GET /api/snapshot).
 * Browser code imports only the types: the constants and schemas carry zod.
 */
import { z } from 'zod';
import { intParam } from './common';
import { queueStatsSchema } from './queues';
import { healthSchema } from './servers';

/** Rows per page of the overview's queue table. */
export const QUEUE_TABLE_PAGE_SIZE = 100;
/** Queues the sidebar lists at most; past it, only those needing attention (see `sidebar`). */
export const SIDEBAR_MAX_QUEUES = 30;

export const liveSnapshotQuerySchema = z.object({
  /** Include a page of the queue table (the overview asks; the shell alone does not). */
  table: z.enum(['1']).optional(),
  page: intParam('page', 1).default(1),
  /** Case-insensitive substring of the queue name. */
  q: z.string().max(200).optional(),
});
export type LiveSnapshotQuery = z.infer<typeof liveSnapshotQuerySchema>;

/** The stream's tick when the viewer names none: the settings' default poll interval. */
export const LIVE_STREAM_DEFAULT_EVERY_MS = 5000;

/**
 * GET /api/snapshot/stream: the same views, pushed as server-sent events (each event's id is the
 * snapshot's ETag, its data the snapshot's JSON) every `every` ms on the server's clock, the
 * viewer's poll interval; a tick that changed nothing sends nothing.
 */
export const liveStreamQuerySchema = liveSnapshotQuerySchema.extend({
  every: intParam('every', 1000, 60_000).default(LIVE_STREAM_DEFAULT_EVERY_MS),
});
export type LiveStreamQuery = z.infer<typeof liveStreamQuerySchema>;

const sidebarQueueSchema = z.object({
  queue: z.string(),
  size: z.number(),
  paused: z.boolean(),
  /** Retry or archived tasks, or an unreadable queue: the sidebar's red dot. */
  failing: z.boolean(),
});
export type SidebarQueueDto = z.infer<typeof sidebarQueueSchema>;

const totalsSchema = z.object({
  queues: z.number(),
  paused: z.number(),
  size: z.number(),
  pending: z.number(),
  active: z.number(),
  scheduled: z.number(),
  retry: z.number(),
  archived: z.number(),
  completed: z.number(),
  aggregating: z.number(),
  processed: z.number(),
  failed: z.number(),
  /** null when no queue reported its memory. */
  memoryUsageBytes: z.number().nullable(),
  /** The oldest pending task's queue and age, if any is pending. */
  oldest: z.object({ queue: z.string(), latencySeconds: z.number() }).nullable(),
});
export type QueueTotalsDto = z.infer<typeof totalsSchema>;

export const liveSnapshotSchema = z.object({
  /** When the server read it (ms since the epoch, the server's clock). */
  at: z.number(),
  /** The Redis read failed: the API's own error (the banner's words); totals are then null. */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** Redis version and read-only mode; null while Redis cannot be reached. */
  health: healthSchema.nullable(),
  totals: totalsSchema.nullable(),
  sidebar: z.object({
    queues: z.array(sidebarQueueSchema),
    /** true when `queues` holds only those needing attention, out of more than SIDEBAR_MAX_QUEUES. */
    attentionOnly: z.boolean(),
  }),
  /** With `?table=1`: one page of the (filtered) queue table. */
  table: z
    .object({
      rows: z.array(queueStatsSchema),
      page: z.number(),
      pageSize: z.number(),
      /** Queues matching the filter (all queues without one). */
      matching: z.number(),
      q: z.string(),
    })
    .nullable(),
});
export type LiveSnapshotDto = z.infer<typeof liveSnapshotSchema>;
