/**
 * What asynq's archive limits will delete, asked by a confirmation before it archives.
 */
import { queryOptions } from '@tanstack/react-query';
import { apiPaths } from '@/lib/paths';
import { contracts } from './contracts';
import { apiFetch } from './fetcher';
import { queryKeys } from './keys';

/** Read when a confirmation opens and never polled: it is a figure for that moment. */
export const archiveForecastQuery = (qname: string, adding: number) =>
  queryOptions({
    queryKey: queryKeys.queues.archiveForecast(qname, adding),
    queryFn: ({ signal }) => apiFetch(apiPaths.archiveForecast(qname, adding), contracts.archiveForecast, { signal }),
    staleTime: 0,
  });
