/**
 * The console's route modules the route and Redis-fault suites call, imported in one place. Each test
 * file sets its Redis settings first: the modules read them on their first request, and Vitest
 * gives every file a module graph of its own.
 */
export async function consoleRoutes() {
  return {
    queues: await import('@/app/api/queues/route'),
    queue: await import('@/app/api/queues/[qname]/route'),
    tasks: await import('@/app/api/queues/[qname]/tasks/route'),
    task: await import('@/app/api/queues/[qname]/tasks/[taskId]/route'),
    action: await import('@/app/api/queues/[qname]/tasks/[taskId]/[action]/route'),
    groups: await import('@/app/api/queues/[qname]/groups/route'),
    archiveForecast: await import('@/app/api/queues/[qname]/archive-forecast/route'),
    bulk: await import('@/app/api/queues/[qname]/bulk/route'),
    health: await import('@/app/api/health/route'),
    metrics: await import('@/app/api/metrics/route'),
  };
}
