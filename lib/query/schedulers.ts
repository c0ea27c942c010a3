/**
 * Scheduler entries (periodic tasks) and what each one enqueued.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiPaths } from '@/lib/paths';
import { contracts } from './contracts';
import { apiFetch } from './fetcher';
import { queryKeys } from './keys';

export const schedulerListQuery = () =>
  queryOptions({
    queryKey: queryKeys.schedulers.list(),
    queryFn: ({ signal }) => apiFetch(apiPaths.schedulers(), contracts.schedulers, { signal }),
  });

export const schedulerEventsQuery = (entryId: string, page: number, size: number) =>
  queryOptions({
    queryKey: queryKeys.schedulers.events(entryId, page, size),
    queryFn: ({ signal }) => apiFetch(apiPaths.schedulerEvents(entryId, page, size), contracts.schedulerEvents, { signal }),
    placeholderData: keepPreviousData,
  });
