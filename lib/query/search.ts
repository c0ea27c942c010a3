/**
 * Task search across queues and states: result pages from a resumable cursor, and acting on
 * every match (counted first, then streamed with progress).
 */
import { infiniteQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { SearchActProgressDto } from '@/lib/contract/search';
import { narrowsByParam } from '@/lib/contract/search-scope';
import type { BulkAction } from '@/lib/contract/task-actions';
import { apiPaths, withPairs, type QueryPairs } from '@/lib/paths';
import { contracts } from './contracts';
import { apiFetch, apiStream } from './fetcher';
import { queryKeys } from './keys';
import { refreshShell } from './poll-policy';

/** Matches asked for per request; a request may still return fewer (it reads ≤ 5,000 tasks). */
export const SEARCH_PAGE_SIZE = 50;

/** The filter as its query string: the cache key, and what a shared link carries. */
export const filterKey = (filter: QueryPairs): string => withPairs('', filter).slice(1);

/**
 * One search, as the pages of its cursor. Never polled and never refetched behind the user's
 * back: a refetch would re-read every page. The view resets it (Refresh, or after an action).
 */
export const searchResultsQuery = (filter: QueryPairs) =>
  infiniteQueryOptions({
    queryKey: queryKeys.search.results(filterKey(filter), SEARCH_PAGE_SIZE),
    queryFn: ({ pageParam, signal }) =>
      apiFetch(apiPaths.search(filter, { cursor: pageParam, size: SEARCH_PAGE_SIZE }), contracts.searchPage, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

/** The filter as the act endpoint's multi-map: a repeated key becomes a list. */
export function filterBody(filter: QueryPairs): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of filter) {
    const prev = out[k];
    out[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
  }
  return out;
}

export type SearchAction = BulkAction;

export type ActProgress = SearchActProgressDto;

/**
 * The filter names no queue, type, state or text: acting on it reaches every task of every
 * queue, which the server takes only with `all: true` (the dialog says so before confirming).
 */
export const actsOnEverything = (filter: QueryPairs): boolean => !filter.some(([k]) => narrowsByParam(k));

interface ActVars {
  filter: QueryPairs;
  action: SearchAction;
  preview: boolean;
  /** The user confirmed acting on every task of every queue (see actsOnEverything). */
  all?: boolean;
  onProgress: (p: ActProgress) => void;
  signal: AbortSignal;
}

const streamAct = ({ filter, action, preview, all, onProgress, signal }: ActVars) =>
  apiStream(
    apiPaths.searchAct(),
    { filter: filterBody(filter), action, preview, ...(all ? { all: true } : {}) },
    { progress: contracts.searchActProgress, result: contracts.searchActOutcome },
    onProgress,
    signal,
  );

/**
 * Counts (`preview`) or runs / archives / deletes every match, reporting progress as the
 * server streams it. After a real action every task read is stale: the lists, the counts,
 * the shell, and the search itself (reset, so it starts again from the first task).
 */
export function useSearchAct() {
  const qc = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: streamAct,
    onSettled: (_data, _err, vars) => {
      if (vars.preview) return;
      refreshShell();
      void qc.invalidateQueries({ queryKey: queryKeys.tasks.all });
      void qc.invalidateQueries({ queryKey: queryKeys.queues.all });
      void qc.resetQueries({ queryKey: queryKeys.search.all });
    },
  });
}
