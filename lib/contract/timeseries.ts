/**
 * History over time (GET /api/timeseries, GET /api/deploys): the shape every chart reads,
 * whichever source answers it — the console's own history in Redis, the process-only history
 * (`ASYNQLENS_HISTORY=memory`), or Prometheus (`ASYNQLENS_PROMETHEUS_URL`). Isomorphic.
 */
import { z } from 'zod';
import { queueName } from './common';

/** The chart ranges, in seconds; a custom window is `from` and `to` instead of `range`. */
export const RANGE_SECONDS = { '15m': 900, '1h': 3600, '6h': 21_600, '24h': 86_400, '7d': 604_800, '30d': 2_592_000 } as const;
export type RangeName = keyof typeof RANGE_SECONDS;
export const RANGE_NAMES = Object.keys(RANGE_SECONDS) as RangeName[];

/** The shortest custom window: one minute. */
export const MIN_WINDOW_SECONDS = 60;
/** Queues one request may name; past it, omit `queue` to read all. */
export const MAX_SERIES_QUEUES = 200;

/**
 * Per-queue series. Sizes are task counts at the sample; `latency_seconds` is the age of the
 * oldest pending task; the per-second rates come from asynq's daily processed/failed counters;
 * `error_rate` is failed / processed over the step (0..1, null when nothing was processed);
 * `paused` is 0 or 1; `memory_bytes` is approximate (sampled MEMORY USAGE), null where unknown.
 */
export const QUEUE_SERIES = [
  'size', 'pending', 'active', 'scheduled', 'retry', 'archived', 'completed', 'aggregating',
  'latency_seconds', 'processed_per_second', 'failed_per_second', 'error_rate', 'paused', 'memory_bytes',
] as const;
/** Per-task-type series, for a queue's top types: `type_count` (with `state`) and the type's failure rate. */
export const TYPE_SERIES = ['type_count', 'type_failed_per_second'] as const;
export const SERIES_NAMES = [...QUEUE_SERIES, ...TYPE_SERIES] as const;
export const seriesNameSchema = z.enum(SERIES_NAMES);
export type SeriesName = z.infer<typeof seriesNameSchema>;

/** Where the points came from. */
export const TIMESERIES_SOURCES = ['history', 'memory', 'prometheus'] as const;
export const timeseriesSourceSchema = z.enum(TIMESERIES_SOURCES);
export type TimeseriesSource = z.infer<typeof timeseriesSourceSchema>;

/** unix seconds, a number or null (no sample in that step) */
export const pointSchema = z.tuple([z.number(), z.number().nullable()]);
export type Point = z.infer<typeof pointSchema>;

export const seriesSchema = z.object({
  queue: z.string(),
  name: seriesNameSchema,
  /** Only on per-type series. */
  type: z.string().optional(),
  /** Only on `type_count`: the task state counted. */
  state: z.string().optional(),
  points: z.array(pointSchema),
});
export type SeriesDto = z.infer<typeof seriesSchema>;

export const timeseriesSchema = z.object({
  /** Seconds between points. */
  step: z.number(),
  /** unix seconds, inclusive */
  from: z.number(),
  to: z.number(),
  source: timeseriesSourceSchema,
  series: z.array(seriesSchema),
});
export type TimeseriesDto = z.infer<typeof timeseriesSchema>;

const unixSeconds = (field: string) =>
  z.coerce.number({ message: `${field}: must be unix seconds` }).int(`${field}: must be whole unix seconds`).min(0, `${field}: must be unix seconds`);

/**
 * `range=1h`, or a custom window `from=…&to=…` (unix seconds, at least MIN_WINDOW_SECONDS, within
 * the source's retention: the service answers a 400 naming the retention past it); `queue` and
 * `series` are repeatable. Cross-field rules (one of range or from/to) are checked by the service.
 */
export const timeseriesQuerySchema = z.object({
  range: z.enum(RANGE_NAMES as [RangeName, ...RangeName[]]).optional(),
  from: unixSeconds('from').optional(),
  to: unixSeconds('to').optional(),
  queue: z.array(queueName).max(MAX_SERIES_QUEUES).optional(),
  series: z.array(seriesNameSchema).max(SERIES_NAMES.length).optional(),
});
export type TimeseriesQuery = z.infer<typeof timeseriesQuerySchema>;

/** A deploy marker: a server record that appeared or went away, read from asynq's servers set. */
export const deploySchema = z.object({
  /** unix seconds: the server's start time (`start`) or when the console saw it gone (`stop`) */
  at: z.number(),
  kind: z.enum(['start', 'stop']),
  host: z.string(),
  pid: z.number(),
  serverId: z.string(),
  queues: z.array(z.string()),
});
export type DeployDto = z.infer<typeof deploySchema>;

export const deploysSchema = z.object({ from: z.number(), to: z.number(), deploys: z.array(deploySchema) });
export type DeploysDto = z.infer<typeof deploysSchema>;

export const deploysQuerySchema = timeseriesQuerySchema.pick({ range: true, from: true, to: true });
export type DeploysQuery = z.infer<typeof deploysQuerySchema>;
