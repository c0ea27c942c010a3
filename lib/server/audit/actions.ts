import 'server-only';
import { apiRoutePattern } from '../http/api-routes';

type Fields = Record<string, unknown>;
interface Rule {
  method: string;
  /** The route's folder path under app/, e.g. /api/queues/[qname]/bulk. */
  pattern: string;
  action: string | ((params: Fields, body: Fields) => string);
}

const str = (v: unknown, fallback: string): string => (typeof v === 'string' && v !== '' ? v : fallback);

/**
 * The audit name of every mutation route. tests/integration/auth lists the app's mutation
 * routes from the file tree and fails when one is missing here.
 */
const RULES: Rule[] = [
  { method: 'POST', pattern: '/api/queues/[qname]/bulk', action: (_, b) => `${str(b.action, 'bulk')}-${Array.isArray(b.ids) ? 'selected' : 'all'}` },
  // Before [action], which would match it too.
  { method: 'POST', pattern: '/api/queues/[qname]/tasks/[taskId]/reschedule', action: 'reschedule-task' },
  { method: 'POST', pattern: '/api/queues/[qname]/tasks/[taskId]/[action]', action: (p) => `${str(p.action, 'act-on')}-task` },
  { method: 'DELETE', pattern: '/api/queues/[qname]/tasks/[taskId]', action: 'delete-task' },
  { method: 'PATCH', pattern: '/api/queues/[qname]/tasks/[taskId]', action: 'edit-payload' },
  { method: 'POST', pattern: '/api/queues/[qname]/tasks', action: 'enqueue' },
  { method: 'POST', pattern: '/api/queues/[qname]/enqueue-replacing-archived', action: 'delete-archived-and-enqueue' },
  { method: 'POST', pattern: '/api/queues/[qname]/pause', action: 'pause-queue' },
  { method: 'POST', pattern: '/api/queues/[qname]/resume', action: 'resume-queue' },
  { method: 'DELETE', pattern: '/api/queues/[qname]', action: 'delete-queue' },
  { method: 'DELETE', pattern: '/api/queues/[qname]/locks', action: 'release-lock' },
  { method: 'POST', pattern: '/api/queues/[qname]/duplicates/resolve', action: 'keep-one' },
  { method: 'POST', pattern: '/api/enqueue-batch', action: 'enqueue-batch' },
  { method: 'POST', pattern: '/api/tasks/search/act', action: (_, b) => `search-${str(b.action, 'act')}${b.preview === true ? '-preview' : ''}` },
  { method: 'POST', pattern: '/api/handler-not-found/rerun', action: 'rerun-not-found' },
];

/** `METHOD /pattern` of every mutation route with an audit name. */
export const AUDITED_ROUTES: readonly string[] = RULES.map((r) => `${r.method} ${r.pattern}`);

function matches(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const got = path.split('/');
  return want.length === got.length && want.every((w, i) => (w.startsWith('[') ? got[i] !== '' : w === got[i]));
}

/** The route's pattern (`/api/queues/[qname]/bulk`, api-routes.ts), or the path itself for one no route serves. */
export function auditRoute(path: string): string {
  return apiRoutePattern(path) ?? path;
}

/** The audit name of a request: from the route table, or method and last segment for an unlisted one. */
export function auditAction(method: string, path: string, params: Fields, body: Fields): string {
  const rule = RULES.find((r) => r.method === method && matches(r.pattern, path));
  if (!rule) return `${method.toLowerCase()}-${path.split('/').filter(Boolean).pop() ?? 'api'}`;
  return typeof rule.action === 'string' ? rule.action : rule.action(params, body);
}

const TARGET_FIELDS: [from: 'params' | 'query' | 'body', field: string, as: string][] = [
  ['params', 'qname', 'queue'],
  ['body', 'queue', 'queue'],
  ['params', 'taskId', 'taskId'],
  ['body', 'archivedId', 'archivedId'],
  ['body', 'state', 'state'],
  ['body', 'states', 'states'],
  ['body', 'group', 'group'],
  ['body', 'processAt', 'processAt'],
  ['body', 'type', 'type'],
  ['body', 'taskType', 'taskType'],
  ['body', 'filter', 'filter'],
  ['query', 'key', 'key'],
  ['query', 'force', 'force'],
];

/** What a mutation aimed at, from its path, query and body; lists are counted, others stringified (bound.ts cuts them). */
export function auditTarget(sources: { params: Fields; query: Fields; body: Fields }): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [from, field, as] of TARGET_FIELDS) {
    const v = sources[from][field];
    if (v === undefined || v === null || as in out) continue;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[as] = v;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) out[as] = v.join(',');
    else out[as] = JSON.stringify(v);
  }
  const listed = sources.body.ids ?? sources.body.taskIds ?? sources.body.items;
  if (Array.isArray(listed)) out.requested = listed.length;
  return out;
}
