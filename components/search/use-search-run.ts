'use client';

import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { QueryPairs } from '@/lib/paths';
import { SEARCH_PAGE_SIZE, searchResultsQuery } from '@/lib/query/search';

/**
 * Drives one search. A request reads at most 5,000 tasks and may come back with no match and
 * a cursor, so this keeps asking, one request at a time, until `want` matches are in or the
 * cursor runs out. Stop aborts the request in flight (the server stops between Redis calls)
 * and keeps what was found; Continue and Load more pick up from the last cursor.
 */
export function useSearchRun(filter: QueryPairs) {
  const qc = useQueryClient();
  const options = searchResultsQuery(filter);
  const query = useInfiniteQuery(options);
  const [want, setWant] = useState(SEARCH_PAGE_SIZE);
  const [stopped, setStopped] = useState(false);
  const { data, isFetching, isError, hasNextPage, fetchNextPage, refetch } = query;
  const tasks = useMemo(() => data?.pages.flatMap((p) => p.tasks) ?? [], [data]);
  const last = data?.pages.at(-1);

  useEffect(() => {
    if (stopped || isFetching || isError) return;
    if (!data) void refetch();
    else if (hasNextPage && tasks.length < want) void fetchNextPage();
  }, [stopped, isFetching, isError, data, hasNextPage, tasks.length, want, fetchNextPage, refetch]);

  return {
    query,
    tasks,
    scanned: last?.scanned ?? 0,
    total: last?.total ?? 0,
    complete: !!last && last.cursor === null,
    searching: isFetching,
    stopped,
    stop: () => {
      setStopped(true);
      void qc.cancelQueries({ queryKey: options.queryKey });
    },
    resume: () => setStopped(false),
    loadMore: () => {
      setStopped(false);
      setWant(tasks.length + SEARCH_PAGE_SIZE);
    },
    restart: () => {
      setStopped(false);
      setWant(SEARCH_PAGE_SIZE);
      void qc.resetQueries({ queryKey: options.queryKey });
    },
  };
}

export type SearchRun = ReturnType<typeof useSearchRun>;

/**
 * What a search has found so far and its error, read from the cache without starting it (the
 * results below the box run it): the box's completions and its error mark.
 */
export function useSearchSnapshot(filter: QueryPairs) {
  const { data, error } = useInfiniteQuery({ ...searchResultsQuery(filter), enabled: false });
  const tasks = useMemo(() => data?.pages.flatMap((p) => p.tasks) ?? [], [data]);
  return { tasks, error };
}
