/**
 * Queue stats, daily history and aggregation groups.
 */
import { queryOptions } from '@tanstack/react-query';
import { apiPaths } from '@/lib/paths';
import { contracts } from './contracts';
import { apiFetch } from './fetcher';
import { queryKeys } from './keys';

export const queueQuery = (qname: string) =>
  queryOptions({
    queryKey: queryKeys.queues.detail(qname),
    queryFn: ({ signal }) => apiFetch(apiPaths.queue(qname), contracts.queueStats, { signal }),
  });

/** Daily counters change once a day at most, so history is cached for a minute and not polled. */
export const queueHistoryQuery = (qname: string, days: number) =>
  queryOptions({
    queryKey: queryKeys.queues.history(qname, days),
    queryFn: ({ signal }) => apiFetch(apiPaths.history(qname, days), contracts.history, { signal }),
    staleTime: 60_000,
  });

export const queueGroupsQuery = (qname: string) =>
  queryOptions({
    queryKey: queryKeys.queues.groups(qname),
    queryFn: ({ signal }) => apiFetch(apiPaths.groups(qname), contracts.groups, { signal }),
  });

/** Every queue with its counts (the API's shared snapshot): the enqueue form's queue choices. */
export const queueListQuery = () =>
  queryOptions({
    queryKey: queryKeys.queues.list(),
    queryFn: ({ signal }) => apiFetch(apiPaths.queues(), contracts.queueList, { signal }),
    staleTime: 10_000,
  });
