/**
 * Liveness of the API and Redis, and whether the server runs read-only.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPaths } from '@/lib/paths';
import { useViewerOnly } from './auth';
import { contracts } from './contracts';
import { apiFetch } from './fetcher';
import { queryKeys } from './keys';

export const healthQuery = () =>
  queryOptions({
    queryKey: queryKeys.health,
    queryFn: ({ signal }) => apiFetch(apiPaths.health(), contracts.health, { signal }),
    staleTime: 0,
  });

/**
 * Whether mutation controls may be shown. Unknown (still loading, or never reached) counts as
 * read-only, so a read-only deployment never flashes buttons that would answer 403. A signed-in
 * viewer is read-only too (the API answers its mutations 403 forbidden_role).
 */
export function useReadOnly(): boolean {
  const { data } = useQuery({ ...healthQuery(), refetchInterval: false });
  const viewer = useViewerOnly();
  return viewer || (data?.readOnly ?? true);
}
