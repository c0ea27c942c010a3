/**
 * Enqueueing by hand: one task, a batch, the read-only pre-check, and a scheduled task's new
 * payload. (Type suggestions come from the task-type census, routing.ts.)
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { batchEnqueueBodySchema, enqueueBodySchema, enqueueCheckBodySchema } from '@/lib/contract/mutations';
import { apiPaths } from '@/lib/paths';
import { contracts } from './contracts';
import { apiFetch, apiMutate } from './fetcher';
import { queryKeys } from './keys';
import { invalidateQueue } from './task-mutations';

export type EnqueueBodyInput = z.input<typeof enqueueBodySchema>;
export type BatchItemInput = z.input<typeof batchEnqueueBodySchema>['items'][number];
export type EnqueueCheckInput = z.input<typeof enqueueCheckBodySchema>;

/** FNV-1a of the payload: the pre-check's cache key names the payload without holding it. */
function digest(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `${text.length}:${(h >>> 0).toString(16)}`;
}

/** What an enqueue would meet now: the unique lock and its holder, and whether the ID is taken. */
export const enqueueCheckQuery = (qname: string, input: EnqueueCheckInput) =>
  queryOptions({
    queryKey: queryKeys.enqueue.check(qname, { ...input, payload: input.payload == null ? input.payload : digest(input.payload) }),
    queryFn: ({ signal }) =>
      apiFetch(apiPaths.enqueueCheck(qname), contracts.enqueueCheck, {
        method: 'POST',
        body: JSON.stringify(input),
        headers: { 'content-type': 'application/json' },
        signal,
      }),
  });

/** Enqueues one task. Refusals (duplicate, ID conflict, bad option) are shown by the form: silent. */
export function useEnqueue() {
  const qc = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ queue, body }: { queue: string; body: EnqueueBodyInput }) =>
      apiMutate('POST', apiPaths.enqueue(queue), { body, schema: contracts.task }),
    onSettled: (_d, _e, { queue }) => {
      void qc.invalidateQueries({ queryKey: queryKeys.enqueue.all });
      void qc.invalidateQueries({ queryKey: queryKeys.queues.list() });
      return invalidateQueue(qc, queue);
    },
  });
}

/**
 * "Delete the archived task and enqueue": the refused enqueue again, with the archived task that
 * held its ID or lock deleted in the same step. Its refusals (the task changed meanwhile) are
 * shown by the form: silent.
 */
export function useEnqueueReplacingArchived() {
  const qc = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ queue, body }: { queue: string; body: EnqueueBodyInput & { archivedId: string } }) =>
      apiMutate('POST', apiPaths.enqueueReplacingArchived(queue), { body, schema: contracts.task }),
    onSettled: (_d, _e, { queue }) => {
      void qc.invalidateQueries({ queryKey: queryKeys.enqueue.all });
      void qc.invalidateQueries({ queryKey: queryKeys.queues.list() });
      return invalidateQueue(qc, queue);
    },
  });
}

/** Enqueues up to 1,000 tasks in one request, with a result per item. */
export function useEnqueueBatch() {
  const qc = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: async (items: BatchItemInput[]) => {
      const res = await apiMutate('POST', apiPaths.enqueueBatch(), { body: { items }, schema: contracts.batchEnqueueResult });
      return res ?? { results: [] };
    },
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.queues.all });
      return qc.invalidateQueries({ queryKey: queryKeys.tasks.all });
    },
  });
}

/** Replaces a scheduled task's payload (asynq allows it in no other state). */
export function useUpdatePayload(qname: string, taskId: string) {
  const qc = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: (body: { payload: string; payloadEncoding: 'utf8' | 'base64' }) =>
      apiMutate('PATCH', apiPaths.task(qname, taskId), { body, schema: contracts.task }),
    onSettled: () => invalidateQueue(qc, qname),
  });
}
