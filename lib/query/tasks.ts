/**
 * Task pages, single tasks and raw payloads.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TaskDto } from '@/lib/contract/tasks';
import { apiPaths } from '@/lib/paths';
import { contracts } from './contracts';
import { apiBytes, apiFetch } from './fetcher';
import { queryKeys, type TaskPageParams } from './keys';

export const taskListQuery = (qname: string, p: TaskPageParams) =>
  queryOptions({
    queryKey: queryKeys.tasks.list(qname, p),
    queryFn: ({ signal }) =>
      apiFetch(apiPaths.tasks(qname, { state: p.state, page: p.page, size: p.size, group: p.group }), contracts.taskList, { signal }),
    placeholderData: keepPreviousData,
  });

export const taskQuery = (qname: string, taskId: string) =>
  queryOptions({
    queryKey: queryKeys.tasks.detail(qname, taskId),
    queryFn: ({ signal }) => apiFetch(apiPaths.task(qname, taskId), contracts.task, { signal }),
  });

/** The whole payload, past the detail view's 1 MiB cut. Fetched only when asked for. */
export const taskPayloadQuery = (qname: string, taskId: string) =>
  queryOptions({
    queryKey: queryKeys.tasks.payload(qname, taskId),
    queryFn: ({ signal }) => apiBytes(apiPaths.taskPayload(qname, taskId), signal),
    staleTime: Infinity,
    gcTime: 30_000,
  });

/** States a task leaves only by being deleted: no point polling them. */
export const isTerminal = (t: TaskDto): boolean => t.state === 'completed' || t.state === 'archived';
