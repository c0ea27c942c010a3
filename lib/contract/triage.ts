/**
 * Handler-not-found triage, the failures view, the routing explainer and the task-type census.
 */
import { z } from 'zod';
import { intParam, isoTime, queueName, writableQueueName } from './common';
import { taskStateSchema } from './tasks';

/**
 * How long a scan request waits for the scan to finish before answering with progress
 * (`complete: false`); the scan goes on and the next request reads it.
 */
const waitParam = intParam('wait', 0, 10_000).default(2000);

export const failureScanQuery = z.object({ queue: queueName.optional(), wait: waitParam });
export type FailureScanQuery = z.infer<typeof failureScanQuery>;

export const failuresQuery = failureScanQuery.extend({ limit: intParam('limit', 1, 1000).default(200) });
export type FailuresQuery = z.infer<typeof failuresQuery>;

const failedState = z.enum(['retry', 'archived'], { error: 'states must be retry and/or archived' });

/** Progress of a scan; `scanned` counts tasks read or ruled out. */
export const scanProgressSchema = z.object({
  complete: z.boolean(),
  scanned: z.number(),
  total: z.number(),
  /** Tasks whose hash or msg was missing or not a TaskMessage. */
  skipped: z.number(),
  /** Keys passed over because they hold another type than asynq writes (at most 100). */
  unreadable: z.array(z.string()),
  startedAt: isoTime,
  finishedAt: isoTime,
});

export const listenerSchema = z.object({ id: z.string(), host: z.string(), pid: z.number(), status: z.string() });

export const notFoundGroupSchema = z.object({
  queue: z.string(),
  taskType: z.string(),
  archived: z.number(),
  retry: z.number(),
  /** Waiting tasks of the type: they will fail the same way unless a handler is deployed first. */
  pending: z.number(),
  scheduled: z.number(),
  /** Sum of `retried` over the group's retry and archived tasks. */
  retriesSpent: z.number(),
  firstFailedAt: isoTime,
  lastFailedAt: isoTime,
  sampleTaskIds: z.array(z.string()),
  /** IDs (as in GET /api/servers) of the live servers listening on the queue. */
  servers: z.array(z.string()),
  listeners: z.array(listenerSchema),
  /** The stored error, e.g. `handler not found for task "report:new"`. */
  message: z.string(),
  explanation: z.string(),
});
export type NotFoundGroupDto = z.infer<typeof notFoundGroupSchema>;

export const handlerNotFoundSchema = scanProgressSchema.extend({
  phase: z.enum(['failures', 'waiting', 'done']),
  queues: z.array(z.string()),
  groups: z.array(notFoundGroupSchema),
});
export type HandlerNotFoundDto = z.infer<typeof handlerNotFoundSchema>;

export const failureGroupSchema = z.object({
  kind: z.enum(['handler_not_found', 'error']),
  /** The normalised message; for not-found groups the exact stored message. */
  signature: z.string(),
  /** For not-found groups: the task type no handler was found for. */
  taskType: z.string().nullable(),
  explanation: z.string().nullable(),
  count: z.number(),
  retry: z.number(),
  archived: z.number(),
  retriesSpent: z.number(),
  queues: z.array(z.object({ queue: z.string(), retry: z.number(), archived: z.number() })),
  taskTypes: z.array(z.object({ taskType: z.string(), count: z.number() })),
  /** Tasks of types beyond the first 50 listed. */
  otherTypes: z.number(),
  firstSeenAt: isoTime,
  lastSeenAt: isoTime,
  samples: z.array(z.object({ queue: z.string(), id: z.string(), state: failedState })),
  /** The most recent raw message of the group (cut at 4,000 characters). */
  exampleMessage: z.string(),
});
export type FailureGroupDto = z.infer<typeof failureGroupSchema>;

export const failuresSchema = scanProgressSchema.extend({
  queues: z.array(z.string()),
  /** Distinct signatures found (groups beyond `limit` are not listed). */
  totalGroups: z.number(),
  /** Failed tasks not grouped because 10,000 signatures were already tracked. */
  ungrouped: z.number(),
  groups: z.array(failureGroupSchema),
});
export type FailuresDto = z.infer<typeof failuresSchema>;

export const rerunBodySchema = z
  .object({
    /** Re-running writes the queue's pending list: a name the console may write keys under. */
    queue: writableQueueName,
    taskType: z.string(),
    states: z.array(failedState).min(1, 'states must not be empty').default(['archived', 'retry']),
  })
  .strict();
export type RerunBody = z.infer<typeof rerunBodySchema>;

/** What a re-run of (queue, type) would move now: the confirmation's count. */
export const notFoundCountQuery = z.object({ queue: queueName, type: z.string().max(1000, 'type must be at most 1000 characters') }).strict();
export type NotFoundCountQuery = z.infer<typeof notFoundCountQuery>;

export const notFoundCountSchema = z.object({
  queue: z.string(),
  taskType: z.string(),
  retry: z.number(),
  archived: z.number(),
  /** When the count was read. */
  countedAt: isoTime,
});
export type NotFoundCountDto = z.infer<typeof notFoundCountSchema>;

const stateOutcome = z.object({ found: z.number(), succeeded: z.number(), failed: z.number() });
export const rerunResultSchema = z.object({
  succeeded: z.number(),
  failed: z.array(z.object({ id: z.string(), error: z.object({ code: z.string(), message: z.string() }) })),
  byState: z.object({ archived: stateOutcome.optional(), retry: stateOutcome.optional() }),
  stopped: z.boolean(),
});
export type RerunResultDto = z.infer<typeof rerunResultSchema>;

/** One `{"progress":…}` line of a streamed re-run: finding a state's tasks, then moving them. */
export const rerunProgressSchema = z.object({
  phase: z.enum(['scanning', 'running']),
  state: failedState,
  done: z.number(),
  total: z.number(),
});
export type RerunProgressDto = z.infer<typeof rerunProgressSchema>;

/** A re-run in progress on this console instance (the overview's banner shows it). */
export const activeRerunSchema = z.object({ queue: z.string(), taskType: z.string(), startedAt: isoTime, progress: rerunProgressSchema.nullable() });
export type ActiveRerunDto = z.infer<typeof activeRerunSchema>;

export const routingExplainBodySchema = z
  .object({
    patterns: z.array(z.string()).max(10_000, 'at most 10000 patterns'),
    taskTypes: z.array(z.string()).max(100_000, 'at most 100000 task types'),
  })
  .strict();
export type RoutingExplainBody = z.infer<typeof routingExplainBodySchema>;

export const routeSchema = z.object({
  taskType: z.string(),
  pattern: z.string().nullable(),
  match: z.enum(['exact', 'prefix', 'none']),
  warning: z.string().nullable(),
  explanation: z.string(),
});
export const routingExplainSchema = z.object({ routes: z.array(routeSchema) });
export type RoutingExplainDto = z.infer<typeof routingExplainSchema>;

export const routingPatternsSchema = z.object({
  patterns: z.array(z.string()),
  /** The ASYNQLENS_ROUTING_FILE path, or null when none is configured. */
  source: z.string().nullable(),
  /** Why the file's patterns cannot be used (unreadable, not JSON, asynq's pattern errors). */
  problem: z.string().nullable(),
});
export type RoutingPatternsDto = z.infer<typeof routingPatternsSchema>;

const stateList = z
  .string()
  .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
  .pipe(z.array(taskStateSchema).min(1, 'states must name at least one state'));

export const taskTypesQuery = z.object({ queue: queueName.optional(), states: stateList.optional(), wait: waitParam });
export type TaskTypesQuery = z.infer<typeof taskTypesQuery>;

export const taskTypesSchema = scanProgressSchema.extend({
  queues: z.array(z.string()),
  states: z.array(taskStateSchema),
  /** Tasks of (queue, type) pairs beyond the first 10,000 (counted, not listed). */
  untracked: z.number(),
  types: z.array(
    z.object({
      queue: z.string(),
      taskType: z.string(),
      counts: z.record(taskStateSchema, z.number()),
      total: z.number(),
    }),
  ),
});
export type TaskTypesDto = z.infer<typeof taskTypesSchema>;
