/**
 * The browser's QueryClient and its defaults.
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { BASE_PATH } from '@/lib/paths';
import { isApiError, isRedisDown } from './fetcher';
import { queryKeys } from './keys';
import { refreshShell } from './poll-policy';

interface Hooks {
  /** Shows a mutation's failure (a toast); a mutation can opt out with `meta: { silent: true }`. */
  onMutationError: (message: string) => void;
}

/**
 * A session that ended while the page was open (expired, signed out in another tab, the user
 * removed): every request now answers 401, so go to the sign-in page, which brings the person
 * back here afterwards. Pages themselves are gated by proxy.ts; this covers an open tab.
 */
function toSignIn(err: unknown): void {
  if (!isApiError(err) || err.status !== 401 || err.code !== 'unauthorized' || typeof window === 'undefined') return;
  const here = window.location.pathname.slice(BASE_PATH.length) + window.location.search;
  window.location.assign(`${BASE_PATH}/login?next=${encodeURIComponent(here || '/')}`);
}

/**
 * - `staleTime` 2 s: several components reading the same key on one page share one request.
 * - 4xx answers are final, so they are never retried; a 5xx or a network failure is retried at
 *   most twice. `redis_unavailable` is not retried: the banner says so at once, and the health
 *   check keeps probing until Redis is back.
 * - Any query that meets `redis_unavailable` re-checks health and tells the live snapshot
 *   poller (the shell), so the banner appears without waiting for the next poll.
 */
export function makeQueryClient({ onMutationError }: Hooks): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (err, query) => {
        toSignIn(err);
        if (!isRedisDown(err)) return;
        if (query.queryKey[0] !== queryKeys.health[0]) void client.invalidateQueries({ queryKey: queryKeys.health });
        refreshShell();
      },
    }),
    mutationCache: new MutationCache({
      onError: (err, _vars, _ctx, mutation) => {
        toSignIn(err);
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
