/**
 * Live servers and the tasks their workers are running.
 */
import { queryOptions } from '@tanstack/react-query';
import { apiPaths } from '@/lib/paths';
import { contracts } from './contracts';
import { apiFetch } from './fetcher';
import { queryKeys } from './keys';

export const serverListQuery = () =>
  queryOptions({
    queryKey: queryKeys.servers.all,
    queryFn: ({ signal }) => apiFetch(apiPaths.servers(), contracts.servers, { signal }),
  });
