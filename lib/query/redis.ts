/**
 * Redis INFO, every section.
 */
import { queryOptions } from '@tanstack/react-query';
import { apiPaths } from '@/lib/paths';
import { contracts } from './contracts';
import { apiFetch } from './fetcher';
import { queryKeys } from './keys';

export const redisInfoQuery = () =>
  queryOptions({
    queryKey: queryKeys.redis.info,
    queryFn: ({ signal }) => apiFetch(apiPaths.redis(), contracts.redis, { signal }),
  });
