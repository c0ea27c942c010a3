/**
 * Every route module of the console's HTTP API (app/api), imported in one place, for tests that
 * call the route handlers in-process (tests/support/call-route). Set the Redis and auth settings
 * first: the modules read them on their first request, and Vitest gives every file a module
 * graph of its own. A case that needs other settings in the same file takes the routes that
 * freshConsole() returns (a reset module graph, a new connection).
    archiveForecast: await import('@/app/api/queues/[qname]/archive-forecast/route'),
 */
import type { Redis } from 'ioredis';
import { testRedisUrl, useTestRedis } from './test-redis';

export async function consoleRoutes() {
  return {
    queues: await import('@/app/api/queues/route'),
    snapshot: await import('@/app/api/snapshot/route'),
    snapshotStream: await import('@/app/api/snapshot/stream/route'),
    queue: await import('@/app/api/queues/[qname]/route'),
    history: await import('@/app/api/queues/[qname]/history/route'),
    groups: await import('@/app/api/queues/[qname]/groups/route'),
    pause: await import('@/app/api/queues/[qname]/pause/route'),
    resume: await import('@/app/api/queues/[qname]/resume/route'),
    bulk: await import('@/app/api/queues/[qname]/bulk/route'),
    check: await import('@/app/api/queues/[qname]/enqueue-check/route'),
    tasks: await import('@/app/api/queues/[qname]/tasks/route'),
    replaceArchived: await import('@/app/api/queues/[qname]/enqueue-replacing-archived/route'),
    task: await import('@/app/api/queues/[qname]/tasks/[taskId]/route'),
    payload: await import('@/app/api/queues/[qname]/tasks/[taskId]/payload/route'),
    action: await import('@/app/api/queues/[qname]/tasks/[taskId]/[action]/route'),
    reschedule: await import('@/app/api/queues/[qname]/tasks/[taskId]/reschedule/route'),
    batch: await import('@/app/api/enqueue-batch/route'),
    locks: await import('@/app/api/queues/[qname]/locks/route'),
    allLocks: await import('@/app/api/locks/route'),
    duplicates: await import('@/app/api/queues/[qname]/duplicates/route'),
    resolve: await import('@/app/api/queues/[qname]/duplicates/resolve/route'),
    search: await import('@/app/api/tasks/search/route'),
    act: await import('@/app/api/tasks/search/act/route'),
    failures: await import('@/app/api/failures/route'),
    notFound: await import('@/app/api/handler-not-found/route'),
    rerun: await import('@/app/api/handler-not-found/rerun/route'),
    notFoundCount: await import('@/app/api/handler-not-found/count/route'),
    taskTypes: await import('@/app/api/task-types/route'),
    explain: await import('@/app/api/routing/explain/route'),
    patterns: await import('@/app/api/routing/patterns/route'),
    verdicts: await import('@/app/api/routing/verdicts/route'),
    servers: await import('@/app/api/servers/route'),
    schedulers: await import('@/app/api/schedulers/route'),
    events: await import('@/app/api/schedulers/[entryId]/events/route'),
    redis: await import('@/app/api/redis/route'),
    archiveForecast: await import('@/app/api/queues/[qname]/archive-forecast/route'),
    health: await import('@/app/api/health/route'),
    live: await import('@/app/api/health/live/route'),
    metrics: await import('@/app/api/metrics/route'),
    audit: await import('@/app/api/audit/route'),
    login: await import('@/app/api/auth/login/route'),
    logout: await import('@/app/api/auth/logout/route'),
    logoutEverywhere: await import('@/app/api/auth/logout-everywhere/route'),
    me: await import('@/app/api/auth/me/route'),
  };
}

export type ConsoleRoutes = Awaited<ReturnType<typeof consoleRoutes>>;

/** The names of the routes that answer `method`. */
export type RoutesWith<M extends 'GET' | 'POST' | 'PATCH' | 'DELETE'> = {
  [K in keyof ConsoleRoutes]: M extends keyof ConsoleRoutes[K] ? K : never;
}[keyof ConsoleRoutes];

/**
 * A route suite's usual set-up in one line at its top (`const { redis, routes } = await
 * useConsoleRoutes(DB)`): the console pointed at database `db`, with `env` besides; a client on
 * `db` (useTestRedis: quit after the file, the database flushed before each test unless
 * `flushEach: false`); and the routes.
 */
export async function useConsoleRoutes(
  db: number,
  { env = {}, flushEach = true }: { env?: Record<string, string>; flushEach?: boolean } = {},
): Promise<{ redis: Redis; routes: ConsoleRoutes }> {
  Object.assign(process.env, { REDIS_URL: testRedisUrl(db), ...env });
  const redis = await useTestRedis(db, { flushEach });
  return { redis, routes: await consoleRoutes() };
}
