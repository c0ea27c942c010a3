/**
 * Duplicate tasks: the server-side scan (started by the first read, continued by later ones,
 * cancelled by DELETE with the same query) and "keep one, delete the rest".
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { DuplicatesReportDto, ResolveDuplicatesResultDto } from '@/lib/contract/diagnostics';
import { apiPaths } from '@/lib/paths';
import { contracts } from './contracts';
import { apiFetch, apiMutate, isApiError } from './fetcher';
import { queryKeys } from './keys';
import { invalidateQueue } from './task-mutations';

/** Task IDs a scan keeps per group unless asked for more (the API's default). */
export const DEFAULT_SAMPLES = 20;
/** The most IDs per group a scan can list. */
export const MAX_SAMPLES = 10_000;
/** IDs per resolve request: well under the API's 100,000, so each answers quickly. */
const RESOLVE_BATCH = 10_000;

const scanPath = (qname: string, states: readonly string[], samples: number) =>
  apiPaths.duplicates(qname, { states: states.join(','), samples: samples === DEFAULT_SAMPLES ? undefined : samples });

/**
 * The scan of `states`: each read returns its progress so far. Not refetched on focus or when
 * stale: after the server forgets a finished scan (60 s), a read would silently start a new one.
 */
export const duplicateScanQuery = (qname: string, states: readonly string[], samples = DEFAULT_SAMPLES) =>
  queryOptions({
    queryKey: queryKeys.duplicates.scan(qname, states, samples),
    queryFn: ({ signal }) => apiFetch(scanPath(qname, states, samples), contracts.duplicatesReport, { signal }),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

export const isScanComplete = (r: DuplicatesReportDto): boolean => r.complete;

/** Stops and forgets a scan; a scan already gone (404) counts as stopped. */
export async function cancelScan(qname: string, states: readonly string[], samples = DEFAULT_SAMPLES): Promise<void> {
  try {
    await apiMutate('DELETE', scanPath(qname, states, samples));
  } catch (err) {
    if (!(isApiError(err) && err.status === 404)) throw err;
  }
}

/** Runs a scan to the end (reading it every 500 ms) and returns its report. */
export async function completeScan(qname: string, states: readonly string[], samples: number, signal: AbortSignal): Promise<DuplicatesReportDto> {
  for (;;) {
    const report = await apiFetch(scanPath(qname, states, samples), contracts.duplicatesReport, { signal });
    if (report.complete) return report;
    await new Promise((resolve) => setTimeout(resolve, 500));
    signal.throwIfAborted();
  }
}

/** Cancel, or rescan (the server keeps a finished scan for 60 s: DELETE, then read again). */
export function useScanControl(qname: string, states: readonly string[]) {
  const qc = useQueryClient();
  const key = queryKeys.duplicates.scan(qname, states, DEFAULT_SAMPLES);
  return useMutation({
    mutationFn: async (then: 'stop' | 'rescan') => {
      await qc.cancelQueries({ queryKey: key });
      await cancelScan(qname, states);
      return then;
    },
    onSuccess: (then) => (then === 'rescan' ? qc.resetQueries({ queryKey: key }) : qc.removeQueries({ queryKey: key })),
  });
}

/**
 * Deletes the given tasks (every group's surplus), in batches, then re-reads the queue: the
 * server forgot the queue's scans, so the scan shown starts over and its counts are fresh.
 * The confirmation shows a refusal itself, hence `silent`.
 */
export function useResolveDuplicates(qname: string) {
  const qc = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: async (taskIds: string[]): Promise<ResolveDuplicatesResultDto> => {
      const total: ResolveDuplicatesResultDto = { deleted: 0, failed: [] };
      for (let i = 0; i < taskIds.length; i += RESOLVE_BATCH) {
        const body = { taskIds: taskIds.slice(i, i + RESOLVE_BATCH) };
        const r = await apiMutate('POST', apiPaths.resolveDuplicates(qname), { body, schema: contracts.resolveDuplicatesResult });
        total.deleted += r?.deleted ?? 0;
        total.failed.push(...(r?.failed ?? []));
      }
      return total;
    },
    onSettled: () => Promise.all([qc.resetQueries({ queryKey: queryKeys.duplicates.queue(qname) }), invalidateQueue(qc, qname)]),
  });
}
