/**
 * The routing verdict of one (queue, task type): the one answer every surface gives to "will a
 * server of this fleet handle this task?" (Routing, Failures, the overview banner, task detail,
 * the enqueue pre-check, `GET /api/routing/verdicts`). Computed in one place in the core, from
 * what Redis records first (servers and the queues each consumes, in-flight types per worker,
 * handler-not-found failures and when) and from the declared patterns of each worker group.
 */
import { z } from 'zod';
import { intParam, isoTime, queueName } from './common';

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

/**
 * `queue` narrows to one queue; `queue` and `type` together answer that one pair (even a type
 * no task has yet: the enqueue pre-check, task detail). `wait` (ms, ≤ 5000) is how long to wait
 * for the shared failure scan and type census when no finished result is at hand.
 */
export const routingVerdictsQuery = z
  .object({
    queue: queueName.optional(),
    type: z.string().max(1000, 'type must be at most 1000 characters').optional(),
    wait: intParam('wait', 0, 5000).default(1000),
  })
  .refine((q) => q.type === undefined || q.queue !== undefined, { path: ['type'], message: 'type needs queue' });
export type RoutingVerdictsQuery = z.infer<typeof routingVerdictsQuery>;

/** What is wrong with the routing file, or with one of its groups or patterns. */
export const ROUTING_RULES = [
  /** The file cannot be read. */
  'unreadable',
  /** The file is not JSON (line and column of the first error). */
  'not_json',
  /** A value has the wrong shape (`groups` not an array, a pattern not a string, …). */
  'shape',
  /** asynq refuses the pattern (blank). */
  'invalid_pattern',
  /** The pattern is registered twice in one group (asynq panics: multiple registrations). */
  'duplicate_pattern',
  /** Two groups have one name. */
  'duplicate_group',
  /** A group names a queue that does not exist in Redis. */
  'unknown_queue',
  /** No live server consumes any queue of the group: the group is not known to run. */
  'unknown_group',
  /** The pattern can never match a task: its group consumes no queue (or only queues that do not exist). */
  'never_matches',
] as const;
export const routingRuleSchema = z.enum(ROUTING_RULES);

export const routingProblemSchema = z.object({
  /** The routing file's path. */
  file: z.string(),
  /** 1-based line of the offending value; null when the whole file is concerned. */
  line: z.number().nullable(),
  rule: routingRuleSchema,
  /** Where in the file: `groups.1.patterns.0`; '' for the whole file. */
  field: z.string(),
  group: z.string().nullable(),
  pattern: z.string().nullable(),
  message: z.string(),
});
export type RoutingProblemDto = z.infer<typeof routingProblemSchema>;

/** A worker group as the routing file declares it; `queues` null: every queue (the old single list). */
export const workerGroupSchema = z.object({
  name: z.string(),
  queues: z.array(z.string()).nullable(),
  patterns: z.array(z.string()),
  emits: z.array(z.string()),
});
export type WorkerGroupDto = z.infer<typeof workerGroupSchema>;

export const routingVerdictsSchema = z.object({
  verdicts: z.array(routingVerdictSchema),
  /** False while the failure scan or type census behind the evidence has not finished once. */
  complete: z.boolean(),
  /** When the evidence was read (the scans' finish time). */
  evidenceAt: isoTime,
  /** The routing file (null when none is configured) with the groups it declares and what is wrong with it. */
  routingFile: z.string().nullable(),
  groups: z.array(workerGroupSchema),
  problems: z.array(routingProblemSchema),
});
export type RoutingVerdictsDto = z.infer<typeof routingVerdictsSchema>;
