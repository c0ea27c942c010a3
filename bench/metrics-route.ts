/**
 * The metrics route handler loaded in this process, as bench/our-reads.ts loads the read
 * routes: no HTTP server, but everything the handler does (auth wrapper, shared read, text
 * rendering) runs, and its Redis traffic is exactly what a scrape sends.
 */
import { register } from 'node:module';
import type { Redis } from 'ioredis';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Next.js loads `server-only` under the `react-server` condition, where it is empty; so do we. */
const SERVER_ONLY_HOOK = `export async function resolve(specifier, context, next) {
  if (specifier !== 'server-only') return next(specifier, context);
  return next(specifier, { ...context, conditions: [...context.conditions, 'react-server'] });
}`;

export interface MetricsRoute {
  /** The connection the route reads through (for counting its socket writes). */
  redis: Redis;
  /** One scrape: the body text; throws on a non-200. */
  scrape: () => Promise<string>;
}

export async function loadMetricsRoute(url: string): Promise<MetricsRoute> {
  register(`data:text/javascript,${encodeURIComponent(SERVER_ONLY_HOOK)}`, import.meta.url);
  process.env.REDIS_URL = url;
  // Every scrape measured must read Redis: with shared snapshots on, all but the first would
  // be answered from the dashboard's snapshot.
  process.env.ASYNQLENS_SNAPSHOT_MS = '0';
  // The bench calls the handler without credentials, on loopback.
  process.env.ASYNQLENS_AUTH ??= 'none';
  const { GET } = (await import('../app/api/metrics/route')) as { GET: Handler };
  const { getRedis } = await import('../lib/server/redis/client');
  // The bench's Redis is one server, never a cluster.
  const redis = getRedis() as Redis;
  // An earlier case of the same run may have closed the shared connection.
  if (redis.status === 'end') await redis.connect();
  return {
    redis,
    scrape: async () => {
      const res = await GET(new Request('http://localhost/api/metrics'), { params: Promise.resolve({}) });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`GET /api/metrics: HTTP ${res.status} ${body.slice(0, 300)}`);
      return body;
    },
  };
}
