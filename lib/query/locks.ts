/**
 * Unique locks: a queue's (or every queue's) locks page by page, one lock by key, and release.
 */
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { LockDto, LockListDto } from '@/lib/contract/diagnostics';
import { apiPaths } from '@/lib/paths';
import { contracts } from './contracts';
import { apiFetch, apiMutate } from './fetcher';
import { queryKeys } from './keys';

/** A page of locks and when it arrived (epoch ms): the base of each lock's live countdown. */
export interface LockPage extends LockListDto {
  fetchedAt: number;
}

export type LockPages = InfiniteData<LockPage, string | null>;

async function lockPage(path: string, signal: AbortSignal): Promise<LockPage> {
  const page = await apiFetch(path, contracts.lockList, { signal });
  return { ...page, fetchedAt: Date.now() };
}

/**
 * Pages follow the server's SCAN cursor until it comes back null. A page may be empty while
 * the scan goes on, and SCAN may return a key twice: readers dedupe by key (see useLockPages).
 */
const pagesOf = (key: readonly unknown[], path: (cursor: string | undefined) => string) =>
  infiniteQueryOptions<LockPage, Error, LockPages, readonly unknown[], string | null>({
    queryKey: key,
    queryFn: ({ pageParam, signal }) => lockPage(path(pageParam ?? undefined), signal),
    initialPageParam: null,
    getNextPageParam: (last) => last.cursor,
  });

export const queueLocksQuery = (qname: string) => pagesOf(queryKeys.locks.list(qname), (cursor) => apiPaths.locks(qname, { cursor }));

export const allLocksQuery = () => pagesOf(queryKeys.locks.every(), (cursor) => apiPaths.allLocks({ cursor }));

/** One lock by key (a task's lock): `lock` is null once it expired or was released. */
export const lockQuery = (qname: string, key: string) =>
  queryOptions({
    queryKey: queryKeys.locks.one(qname, key),
    queryFn: async ({ signal }) => {
      const page = await lockPage(apiPaths.locks(qname, { key }), signal);
      return { lock: page.locks[0] ?? null, fetchedAt: page.fetchedAt };
    },
  });

/** What polling compares: the locks and their holders, not the TTLs that change on every read. */
export function lockPagesFingerprint(data: LockPages): string {
  return data.pages.map((p) => p.locks.map((l) => `${l.key}\u0000${l.holderId}\u0000${l.holderState}\u0000${l.findings.length}`).join('\n')).join('\n');
}

/** Holder states in which the lock guards nothing, so releasing it cannot let a duplicate in. */
export function releasable(lock: LockDto): boolean {
  return lock.holderState === null || lock.holderState === 'completed' || lock.holderState === 'archived';
}

/**
 * Releases a lock, naming the holder the operator saw: the server deletes it only while that
 * task still holds it (409 otherwise, 404 once it is gone). The dialog shows that refusal
 * itself, hence `silent`. Lock lists and the queue's tasks (their lock badges) re-read after.
 */
export function useReleaseLock() {
  const qc = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: (lock: LockDto) => apiMutate('DELETE', apiPaths.locks(lock.queue, { key: lock.key, holder: lock.holderId })),
    onSettled: (_data, _err, lock) =>
      Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.locks.all }),
        qc.invalidateQueries({ queryKey: queryKeys.tasks.queue(lock.queue) }),
      ]),
  });
}
