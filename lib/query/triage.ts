/**
 * Failure triage: the failures grouped by error signature, the handler-not-found groups, and
 * re-running a not-found group once its handler is deployed.
 *
 * Both reads continue one server-side scan (the same one for both, per queue filter): a request
 * waits up to 2 s for it and may answer `complete: false` with progress, so a view reads again
 * quickly until it completes (see `useScanPollInterval`). A finished scan is shared by every viewer for
 * 10 s; the next read after that starts a fresh one.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FailuresDto, HandlerNotFoundDto, NotFoundCountDto, RerunProgressDto } from '@/lib/contract/triage';
import { apiPaths } from '@/lib/paths';
import { contracts } from './contracts';
import { apiFetch, apiStream } from './fetcher';
import { queryKeys } from './keys';
import { refreshShell } from './poll-policy';
import { usePollInterval } from './use-poll-interval';

/** How often a view re-reads a scan that is not complete yet (each read also waits up to 2 s). */
const SCAN_PROGRESS_MS = 500;

/**
 * The polling of a scan read: every 500 ms while the scan runs (watching it finish is the
 * point), then the normal policy. Call `track(query.data)` after the query, in the same render:
 * it switches between the two (a state update during render, React's way to derive state from
 * the previous answer).
 */
export function useScanPollInterval<T extends { complete: boolean }>(fingerprint: (d: T) => unknown) {
  const [running, setRunning] = useState(false);
  const poll = usePollInterval<T>({ fingerprint, progressMs: running ? SCAN_PROGRESS_MS : undefined });
  const track = (data: T | undefined) => {
    const r = data !== undefined && !data.complete;
    if (r !== running) setRunning(r);
  };
  return [poll, track] as const;
}

export const failuresQuery = (queue: string | null) =>
  queryOptions({
    queryKey: queryKeys.triage.failures(queue),
    queryFn: ({ signal }) => apiFetch(apiPaths.failures({ queue: queue ?? undefined }), contracts.failures, { signal }),
  });

export const handlerNotFoundQuery = (queue: string | null) =>
  queryOptions({
    queryKey: queryKeys.triage.notFound(queue),
    queryFn: ({ signal }) => apiFetch(apiPaths.handlerNotFound({ queue: queue ?? undefined }), contracts.handlerNotFound, { signal }),
  });

/** What counts as a change for polling: the groups, not the scan's timestamps. */
export const failuresFingerprint = (d: FailuresDto): string => JSON.stringify([d.complete, d.groups]);
export const notFoundFingerprint = (d: HandlerNotFoundDto): string => JSON.stringify([d.complete, d.groups]);

export type RerunProgress = RerunProgressDto;

/**
 * The exact number of tasks a re-run of (queue, type) would move, read when a confirmation
 * opens (never from a scan's cache): the count it states, so the result can explain a difference.
 */
export const fetchNotFoundCount = (queue: string, taskType: string, signal: AbortSignal): Promise<NotFoundCountDto> =>
  apiFetch(apiPaths.notFoundCount({ queue, type: taskType }), contracts.notFoundCount, { signal });

interface RerunVars {
  queue: string;
  taskType: string;
  onProgress: (p: RerunProgress) => void;
  signal: AbortSignal;
}

const streamRerun = ({ queue, taskType, onProgress, signal }: RerunVars) =>
  apiStream(apiPaths.rerunNotFound(), { queue, taskType }, { progress: contracts.rerunProgress, result: contracts.rerunResult }, onProgress, signal);

/**
 * Moves every retry and archived task of a type in a queue whose last error is "handler not
 * found" back to pending, in batches, streaming progress. Afterwards every triage scan, task
 * list and count is stale: the scans start over, the rest is re-read.
 */
export function useRerunNotFound() {
  const qc = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: streamRerun,
    onSettled: () => {
      refreshShell();
      void qc.resetQueries({ queryKey: queryKeys.triage.all });
      void qc.invalidateQueries({ queryKey: queryKeys.tasks.all });
      void qc.invalidateQueries({ queryKey: queryKeys.queues.all });
    },
  });
}
