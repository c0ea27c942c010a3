/**
 * The browser's QueryClient and its defaults.
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError, isRedisDown } from './fetcher';
import { queryKeys } from './keys';
import { refreshShell } from './poll-policy';

interface Hooks {
  /** Shows a mutation's failure (a toast); a mutation can opt out with `meta: { silent: true }`. */
  onMutationError: (message: string) => void;
}

/**
 * - `staleTime` 2 s: several components reading the same key on one page share one request.
 * - 4xx answers are final, so they are never retried; a 5xx or a network failure is retried at
 *   most twice. `redis_unavailable` is not retried: the banner says so at once, and the health
 *   check keeps probing until Redis is back.
 * - Any query that meets `redis_unavailable` re-checks health and tells the server-rendered
 *   shell (AutoRefresh), so the banner appears without waiting for the next poll.
 */
export function makeQueryClient({ onMutationError }: Hooks): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (err, query) => {
        if (!isRedisDown(err)) return;
        if (query.queryKey[0] !== queryKeys.health[0]) void client.invalidateQueries({ queryKey: queryKeys.health });
        refreshShell();
      },
    }),
    mutationCache: new MutationCache({
      onError: (err, _vars, _ctx, mutation) => {
        if (mutation.meta?.silent) return;
        onMutationError(err instanceof Error ? err.message : String(err));
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 2000,
        refetchIntervalInBackground: false,
        retry: (failures, err) => {
          if (isApiError(err) && (err.status >= 400 && err.status < 500 || err.code === 'redis_unavailable')) return false;
          return failures < 2;
        },
      },
      mutations: { retry: false },
    },
  });
  return client;
}
