import 'server-only';

/**
 * Every API route's pattern: its folder under app/ (tests/unit/server/api-routes.test.ts checks
 * the list against the tree). A request is labelled by its pattern wherever a label must stay
 * bounded (request latency, the audit log's refusals), never by its path, which carries queue
 * names and task IDs.
 */
export const API_ROUTES: readonly string[] = [
  '/api/audit',
  '/api/auth/login',
  '/api/auth/logout',
  '/api/auth/logout-everywhere',
  '/api/auth/me',
  '/api/enqueue-batch',
  '/api/failures',
  '/api/handler-not-found',
  '/api/handler-not-found/count',
  '/api/handler-not-found/rerun',
  '/api/health',
  '/api/health/live',
  '/api/locks',
  '/api/metrics',
  '/api/queues',
  '/api/queues/[qname]',
  '/api/queues/[qname]/archive-forecast',
  '/api/queues/[qname]/bulk',
  '/api/queues/[qname]/duplicates',
  '/api/queues/[qname]/duplicates/resolve',
  '/api/queues/[qname]/enqueue-check',
  '/api/queues/[qname]/enqueue-replacing-archived',
  '/api/queues/[qname]/groups',
  '/api/queues/[qname]/history',
  '/api/queues/[qname]/locks',
  '/api/queues/[qname]/pause',
  '/api/queues/[qname]/resume',
  '/api/queues/[qname]/tasks',
  '/api/queues/[qname]/tasks/[taskId]',
  '/api/queues/[qname]/tasks/[taskId]/[action]',
  '/api/queues/[qname]/tasks/[taskId]/payload',
  '/api/queues/[qname]/tasks/[taskId]/reschedule',
  '/api/redis',
  '/api/routing/explain',
  '/api/routing/patterns',
  '/api/routing/verdicts',
  '/api/schedulers',
  '/api/schedulers/[entryId]/events',
  '/api/servers',
  '/api/snapshot',
  '/api/snapshot/stream',
  '/api/task-types',
  '/api/tasks/search',
  '/api/tasks/search/act',
];

/** Fixed paths next.config.ts rewrites to an API route (Prometheus' default scrape path). */
const REWRITES: Readonly<Record<string, string>> = { '/metrics': '/api/metrics' };

const split = (p: string) => p.split('/').slice(1);

/**
 * Patterns split into segments, most specific first: at the first segment where two differ, a
 * static one wins over a dynamic one, as Next's router decides (`.../tasks/[taskId]/payload`
 * before `.../tasks/[taskId]/[action]`).
 */
const ORDERED = API_ROUTES.map((pattern) => ({ pattern, segments: split(pattern) })).sort((a, b) => {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const da = a.segments[i]!.startsWith('[');
    const db = b.segments[i]!.startsWith('[');
    if (da !== db) return da ? 1 : -1;
  }
  return 0;
});

/**
 * The pattern of the API route serving `path` (already without the base path): `/api/queues/
 * emails/tasks/abc` → `/api/queues/[qname]/tasks/[taskId]`; null for a path no route serves.
 * A dynamic segment matches any non-empty segment. Cost: a walk of the 44 patterns.
 */
export function apiRoutePattern(path: string): string | null {
  const rewritten = REWRITES[path];
  if (rewritten) return rewritten;
  const got = split(path);
  const hit = ORDERED.find(({ segments }) => segments.length === got.length && segments.every((s, i) => (s.startsWith('[') ? got[i] !== '' : s === got[i])));
  return hit?.pattern ?? null;
}
