/**
 * Queue actions: pause/resume (optimistic) and delete.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueueStatsDto } from '@/lib/contract/queues';
import { apiPaths } from '@/lib/paths';
import { contracts } from './contracts';
import { apiMutate } from './fetcher';
import { refreshShell } from './poll-policy';
import { queryKeys } from './keys';

/**
 * Pauses or resumes a queue. The paused flag flips at once, and flips back (with a toast from
 * the mutation cache) if the server refuses; the server-rendered sidebar follows on settle.
 */
export function usePauseQueue(qname: string) {
  const qc = useQueryClient();
  const detailKey = queryKeys.queues.detail(qname);
  return useMutation({
    mutationFn: (pause: boolean) =>
      apiMutate('POST', pause ? apiPaths.pause(qname) : apiPaths.resume(qname), { schema: contracts.queueStats }),
    onMutate: async (pause: boolean) => {
      await qc.cancelQueries({ queryKey: detailKey });
      const detail = qc.getQueryData<QueueStatsDto>(detailKey);
      if (detail) qc.setQueryData<QueueStatsDto>(detailKey, { ...detail, paused: pause, pausedSince: pause ? new Date().toISOString() : null });
      return { detail };
    },
    onError: (_err, _pause, ctx) => {
      if (ctx?.detail) qc.setQueryData(detailKey, ctx.detail);
    },
    onSettled: () => {
      refreshShell();
      return qc.invalidateQueries({ queryKey: detailKey });
    },
  });
}

/**
 * Deletes a queue; without `force` the server refuses (409) while it still holds tasks. The
 * dialog shows that error itself, hence `silent`.
 */
export function useDeleteQueue(qname: string) {
  const qc = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: (force: boolean) => apiMutate('DELETE', apiPaths.queue(qname, { force: force || undefined })),
    onSuccess: () => {
      qc.removeQueries({ queryKey: queryKeys.tasks.queue(qname) });
      qc.removeQueries({ queryKey: queryKeys.queues.detail(qname) });
    },
    onSettled: refreshShell,
  });
}
