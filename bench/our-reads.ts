/**
 * Our side of the read benchmark's Redis counts: the four dashboard reads, called through the
 * real route handlers in this process, so the Redis traffic counted (round trips on this
 * client's socket, commands under MONITOR) is exactly what the route sends. Their latency is
 * measured elsewhere, over HTTP against the launched server (bench/http-servers.ts): an
 * in-process call skips the HTTP server and the launcher, so its
 * time is never compared with a server's.
 *
 * Why a resolve hook: lib/server imports `server-only`, whose default export throws; Next.js
 * loads it under the `react-server` condition, where it is an empty module. The hook asks for
 * that condition for this one package only. If the routes still cannot be loaded, the reads
 * fall back to the core calls the routes make (createInspector), and `via` says so.
 */
import { register } from 'node:module';
import type { Redis } from 'ioredis';
import { createInspector, createRedis } from '../lib/asynq';

export type ReadName = 'queues' | 'page1' | 'page5000' | 'taskInfo';

export interface Read {
  name: ReadName;
  /** The read's URL path, the same on our server and Go's, e.g. `/api/queues`. */
  path: string;
  run: () => Promise<unknown>;
}

export interface OurReads {
  via: 'route handlers' | 'core calls';
  /** Why the routes could not be used (only when `via` is the core). */
  fallbackReason?: string;
  redis: Redis;
  reads: Read[];
  close(): void;
}

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

const SERVER_ONLY_HOOK = `export async function resolve(specifier, context, next) {
  if (specifier !== 'server-only') return next(specifier, context);
  return next(specifier, { ...context, conditions: [...context.conditions, 'react-server'] });
}`;

/** The reads' URL paths; each is also the route whose handler runs in-process. */
export function readPaths(q: string, id: string): Record<ReadName, string> {
  const base = `/api/queues/${encodeURIComponent(q)}`;
  return {
    queues: '/api/queues',
    page1: `${base}/tasks?state=pending&page=1&size=20`,
    page5000: `${base}/tasks?state=pending&page=5000&size=20`,
    taskInfo: `${base}/tasks/${encodeURIComponent(id)}`,
  };
}

/** Calls a handler as Next.js would and returns the body text; throws on a non-200. */
async function call(handler: Handler, path: string, params: Record<string, string>): Promise<string> {
  const res = await handler(new Request(`http://localhost${path}`), { params: Promise.resolve(params) });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${body.slice(0, 300)}`);
  return body;
}

async function routeReads(url: string, q: string, id: string): Promise<OurReads> {
  register(`data:text/javascript,${encodeURIComponent(SERVER_ONLY_HOOK)}`, import.meta.url);
  process.env.REDIS_URL = url; // read once, by the first route call
  // The routes share one read per view for ASYNQLENS_SNAPSHOT_MS (lib/server/cache/snapshot.ts);
  // measured with it on, every timed request after the first is a cache hit with no Redis read.
  process.env.ASYNQLENS_SNAPSHOT_MS = '0';
  // The bench calls the handlers directly on its private loopback Redis: no sign-in.
  process.env.ASYNQLENS_AUTH ??= 'none';
  const queues = (await import('../app/api/queues/route')) as { GET: Handler };
  const tasks = (await import('../app/api/queues/[qname]/tasks/route')) as { GET: Handler };
  const task = (await import('../app/api/queues/[qname]/tasks/[taskId]/route')) as { GET: Handler };
  const { getRedis } = await import('../lib/server/redis/client');
  const p = readPaths(q, id);
  // The bench's Redis is one server, never a cluster.
  const redis = getRedis() as Redis;
  return {
    via: 'route handlers',
    redis,
    reads: [
      { name: 'queues', path: p.queues, run: () => call(queues.GET, p.queues, {}) },
      { name: 'page1', path: p.page1, run: () => call(tasks.GET, p.page1, { qname: q }) },
      { name: 'page5000', path: p.page5000, run: () => call(tasks.GET, p.page5000, { qname: q }) },
      { name: 'taskInfo', path: p.taskInfo, run: () => call(task.GET, p.taskInfo, { qname: q, taskId: id }) },
    ],
    close: () => redis.disconnect(),
  };
}

function coreReads(url: string, q: string, id: string, fallbackReason: string): OurReads {
  const redis = createRedis({ url });
  const insp = createInspector(redis);
  const p = readPaths(q, id);
  return {
    via: 'core calls',
    fallbackReason,
    redis,
    reads: [
      { name: 'queues', path: p.queues, run: () => insp.queues() },
      { name: 'page1', path: p.page1, run: () => insp.tasks(q, 'pending', { page: 1, size: 20 }) },
      { name: 'page5000', path: p.page5000, run: () => insp.tasks(q, 'pending', { page: 5000, size: 20 }) },
      { name: 'taskInfo', path: p.taskInfo, run: () => insp.task(q, id) },
    ],
    close: () => redis.disconnect(),
  };
}

/** The four reads against queue `q` and task `id`, through the routes when they load. */
export async function loadOurReads(url: string, q: string, id: string): Promise<OurReads> {
  try {
    return await routeReads(url, q, id);
  } catch (err) {
    return coreReads(url, q, id, err instanceof Error ? err.message : String(err));
  }
}
