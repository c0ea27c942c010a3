'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { LockDto } from '@/lib/contract/diagnostics';
import { lockPagesFingerprint, type LockPages, type queueLocksQuery } from '@/lib/query/locks';
import { usePollInterval } from '@/lib/query/use-poll-interval';

/** Locks read before pausing to ask: enough for any sane queue, bounded for a runaway one. */
export const LOCKS_PER_READ = 2000;

export interface LockRowData {
  lock: LockDto;
  /** When its page arrived (epoch ms), for the countdown. */
  fetchedAt: number;
}

/** Every lock once, by key (SCAN may return a key on two pages; the later read wins). */
function dedupe(data: LockPages | undefined): LockRowData[] {
  const byKey = new Map<string, LockRowData>();
  for (const page of data?.pages ?? []) for (const lock of page.locks) byKey.set(lock.key, { lock, fetchedAt: page.fetchedAt });
  return [...byKey.values()];
}

/**
 * Reads lock pages one after another until the scan ends or LOCKS_PER_READ locks are in;
 * `readMore` raises that bound. Polled like any list (every loaded page is re-read in turn).
 */
export function useLockPages(options: ReturnType<typeof queueLocksQuery>) {
  const poll = usePollInterval({ fingerprint: lockPagesFingerprint });
  const q = useInfiniteQuery({ ...options, ...poll });
  const [budget, setBudget] = useState(LOCKS_PER_READ);
  const rows = useMemo(() => dedupe(q.data), [q.data]);
  const { hasNextPage, isFetching, isError, fetchNextPage } = q;
  const wantMore = hasNextPage && rows.length < budget;
  useEffect(() => {
    if (wantMore && !isFetching && !isError) void fetchNextPage();
  }, [wantMore, isFetching, isError, fetchNextPage]);
  return {
    query: q,
    rows,
    /** The scan reached the end: the rows are every lock there is. */
    complete: q.isSuccess && !hasNextPage,
    scanning: wantMore && !isError,
    readMore: () => setBudget(rows.length + LOCKS_PER_READ),
  };
}
