/**
 * Every route module of the console's HTTP API (app/api), imported in one place, for tests that
 * call the route handlers in-process (tests/support/call-route). Set the Redis and auth settings
 * first: the modules read them on their first request, and Vitest gives every file a module
 * graph of its own. A case that needs other settings in the same file takes the routes that
 * freshConsole() returns (a reset module graph, a new connection).
 */
export async function consoleRoutes() {
  const [
    queues, queue, history, groups, pause, resume, bulk, check,
    tasks, task, payload, action, batch,
    locks, allLocks, duplicates, resolve,
    search, act, failures, notFound, rerun, taskTypes, explain, patterns,
    servers, schedulers, events, redis,
    health, live, metrics, audit, login, logout, me,
  ] = await Promise.all([
    import('@/app/api/queues/route'),
    import('@/app/api/queues/[qname]/route'),
    import('@/app/api/queues/[qname]/history/route'),
    import('@/app/api/queues/[qname]/groups/route'),
    import('@/app/api/queues/[qname]/pause/route'),
    import('@/app/api/queues/[qname]/resume/route'),
    import('@/app/api/queues/[qname]/bulk/route'),
    import('@/app/api/queues/[qname]/enqueue-check/route'),
    import('@/app/api/queues/[qname]/tasks/route'),
    import('@/app/api/queues/[qname]/tasks/[taskId]/route'),
    import('@/app/api/queues/[qname]/tasks/[taskId]/payload/route'),
    import('@/app/api/queues/[qname]/tasks/[taskId]/[action]/route'),
    import('@/app/api/enqueue-batch/route'),
    import('@/app/api/queues/[qname]/locks/route'),
    import('@/app/api/locks/route'),
    import('@/app/api/queues/[qname]/duplicates/route'),
    import('@/app/api/queues/[qname]/duplicates/resolve/route'),
    import('@/app/api/tasks/search/route'),
    import('@/app/api/tasks/search/act/route'),
    import('@/app/api/failures/route'),
    import('@/app/api/handler-not-found/route'),
    import('@/app/api/handler-not-found/rerun/route'),
    import('@/app/api/task-types/route'),
    import('@/app/api/routing/explain/route'),
    import('@/app/api/routing/patterns/route'),
    import('@/app/api/servers/route'),
    import('@/app/api/schedulers/route'),
    import('@/app/api/schedulers/[entryId]/events/route'),
    import('@/app/api/redis/route'),
    import('@/app/api/health/route'),
    import('@/app/api/health/live/route'),
    import('@/app/api/metrics/route'),
    import('@/app/api/audit/route'),
    import('@/app/api/auth/login/route'),
    import('@/app/api/auth/logout/route'),
    import('@/app/api/auth/me/route'),
  ]);
  return {
    queues, queue, history, groups, pause, resume, bulk, check,
    tasks, task, payload, action, batch,
    locks, allLocks, duplicates, resolve,
    search, act, failures, notFound, rerun, taskTypes, explain, patterns,
    servers, schedulers, events, redis,
    health, live, metrics, audit, login, logout, me,
  };
}

export type ConsoleRoutes = Awaited<ReturnType<typeof consoleRoutes>>;

/** The names of the routes that answer `method`. */
export type RoutesWith<M extends 'GET' | 'POST' | 'PATCH' | 'DELETE'> = {
  [K in keyof ConsoleRoutes]: M extends keyof ConsoleRoutes[K] ? K : never;
}[keyof ConsoleRoutes];
