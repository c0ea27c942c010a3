/**
 * The routing verdict of one (queue, task type): the one answer every surface gives to "will a
 * server of this fleet handle this task?" (Routing, Failures, the overview banner, task detail,
 * the enqueue pre-check, `GET /api/routing/verdicts`). Computed in one place in the core, from
 * what Redis records first (servers and the queues each consumes, in-flight types per worker,
 * handler-not-found failures and when) and from the declared patterns of each worker group.
 */
import { z } from 'zod';
import { isoTime, queueName } from './common';

export const VERDICTS = ['handled', 'not_handled', 'aggregated', 'conflict', 'unknown'] as const;
export const verdictSchema = z.enum(VERDICTS);
export type Verdict = z.infer<typeof verdictSchema>;

/** What a piece of evidence is; `detail` says it in plain words, with names, hosts and times. */
export const EVIDENCE_KINDS = [
  /** A group's declared pattern matches the type (exact or longest prefix), for a group that consumes the queue. */
  'declared_route',
  /** No declared pattern of any group consuming the queue matches the type. */
  'no_declared_route',
  /** A live server consumes the queue (host, pid, started, version). */
  'server_consumes_queue',
  /** No live server consumes the queue. */
  'no_server_on_queue',
  /** A worker of a live server was seen processing the type. */
  'seen_processing',
  /** A task of the type completed (retained in the completed set). */
  'seen_completed',
  /** Tasks of the type failed with `handler not found for task "T"` (count, first and last time). */
  'handler_not_found',
  /** The queue has a group aggregator; group members of this type are turned into the types it emits. */
  'group_aggregation',
  /** A server publishes its patterns with its record (the console's TypeScript task server). */
  'published_routes',
] as const;
export const evidenceKindSchema = z.enum(EVIDENCE_KINDS);

export const evidenceSchema = z.object({ kind: evidenceKindSchema, detail: z.string() });
export type EvidenceDto = z.infer<typeof evidenceSchema>;

export const routingVerdictSchema = z.object({
  queue: z.string(),
  taskType: z.string(),
  verdict: verdictSchema,
  /** Since when the verdict holds, when known (the first handler-not-found failure of a conflict). */
  since: isoTime.nullable(),
  /** One sentence for the operator, e.g. declared by `billing`, yet since 14:02 a server without it archived 528 tasks. */
  summary: z.string(),
  evidence: z.array(evidenceSchema),
  /** For `aggregated`: the types the group aggregator was seen emitting. */
  emits: z.array(z.string()).optional(),
});
export type RoutingVerdictDto = z.infer<typeof routingVerdictSchema>;

export const routingVerdictsQuery = z.object({ queue: queueName.optional() });
export type RoutingVerdictsQuery = z.infer<typeof routingVerdictsQuery>;

export const routingVerdictsSchema = z.object({ verdicts: z.array(routingVerdictSchema) });
export type RoutingVerdictsDto = z.infer<typeof routingVerdictsSchema>;
