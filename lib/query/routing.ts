/**
 * The routing explainer's reads: the task types in Redis (a server-side census, polled like the
 * failure scan until complete), the patterns of the deployment's routing file, and which
 * pattern asynq's ServeMux picks for each type.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiPaths } from '@/lib/paths';
import { contracts } from './contracts';
import { apiFetch } from './fetcher';
import { queryKeys } from './keys';

/** Every task type in every state of `queue` (null: every queue), with counts. */
export const taskTypesQuery = (queue: string | null = null) =>
  queryOptions({
    queryKey: queryKeys.triage.taskTypes(queue),
    queryFn: ({ signal }) => apiFetch(apiPaths.taskTypes({ queue: queue ?? undefined }), contracts.taskTypes, { signal }),
  });

/** The patterns from ASYNQLENS_ROUTING_FILE (empty, `source: null`, when none is configured). */
export const routingPatternsQuery = () =>
  queryOptions({
    queryKey: queryKeys.routing.patterns(),
    queryFn: ({ signal }) => apiFetch(apiPaths.routingPatterns(), contracts.routingPatterns, { signal }),
    staleTime: 60_000,
  });

/**
 * The route of each type under `patterns`. A POST, but a read (allowed in read-only mode): the
 * answer depends only on the two lists, so it never goes stale. An invalid pattern set is a 400
 * naming the pattern (`field: "patterns.N"`) in asynq's own words.
 */
export const routingExplainQuery = (patterns: readonly string[], taskTypes: readonly string[]) =>
  queryOptions({
    queryKey: queryKeys.routing.explain(patterns, taskTypes),
    queryFn: ({ signal }) =>
      apiFetch(apiPaths.routingExplain(), contracts.routingExplain, {
        method: 'POST',
        body: JSON.stringify({ patterns, taskTypes }),
        headers: { 'content-type': 'application/json' },
        signal,
      }),
    staleTime: Infinity,
    placeholderData: keepPreviousData,
  });

/**
 * The routing verdicts (handled, not_handled, aggregated, conflict, unknown, with evidence) of
 * every (queue, type) the fleet's evidence mentions, or of `queue`'s types. Every surface reads
 * this one answer; the server keeps the scans behind it, so polling it is cheap.
 */
export const routingVerdictsQuery = (queue: string | null = null) =>
  queryOptions({
    queryKey: queryKeys.routing.verdicts(queue),
    queryFn: ({ signal }) => apiFetch(apiPaths.routingVerdicts({ queue: queue ?? undefined }), contracts.routingVerdicts, { signal }),
    staleTime: 5_000,
    placeholderData: keepPreviousData,
  });

/**
 * The verdict of one (queue, type) — task detail, the enqueue pre-check — answered from the
 * server's kept evidence without waiting for a scan (`wait: 0`): even a type no task has yet.
 */
export const routingVerdictQuery = (queue: string, type: string) =>
  queryOptions({
    queryKey: queryKeys.routing.verdicts(queue, type),
    queryFn: ({ signal }) => apiFetch(apiPaths.routingVerdicts({ queue, type, wait: 0 }), contracts.routingVerdicts, { signal }),
    staleTime: 5_000,
    select: (d) => ({ ...d, verdict: d.verdicts[0] ?? null }),
  });
