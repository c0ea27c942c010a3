/**
 * Every href and API URL the client builds. Queue names and task IDs are arbitrary strings
 * (`work:main`, `low priority`, `a/b`, `очередь-日本`), so each one is percent-encoded as a
 * single path segment here and nowhere else; Next hands it back decoded exactly once.
 */
import type { PostAction } from '@/lib/contract/task-actions';

const seg = encodeURIComponent;

type Query = Record<string, string | number | boolean | null | undefined>;

/** Query parameters that may repeat (`queue=a&queue=b`), in order: the search filter's shape. */
export type QueryPairs = readonly (readonly [key: string, value: string])[];

/** `?a=1&b=x` from the defined, non-empty entries; '' when none. */
export function withQuery(path: string, query: Query = {}): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== '' && v !== false) sp.set(k, String(v));
  }
  const s = sp.toString();
  return s ? `${path}?${s}` : path;
}

/** `?a=1&a=2&b=x` from pairs (repeats kept, order kept) plus the defined entries of `query`. */
export function withPairs(path: string, pairs: QueryPairs, query: Query = {}): string {
  const sp = new URLSearchParams();
  for (const [k, v] of pairs) sp.append(k, v);
  const rest = withQuery('', query);
  const s = [sp.toString(), rest.slice(1)].filter(Boolean).join('&');
  return s ? `${path}?${s}` : path;
}

export const paths = {
  overview: () => '/',
  queue: (qname: string, query?: Query) => withQuery(`/queues/${seg(qname)}`, query),
  task: (qname: string, taskId: string) => `/queues/${seg(qname)}/tasks/${seg(taskId)}`,
  servers: () => '/servers',
  schedulers: (query?: Query) => withQuery('/schedulers', query),
  redis: () => '/redis',
  settings: () => '/settings',
  /** The task search; the filter travels as the API's own parameters, so a link shares it. */
  search: (filter: QueryPairs = [], query?: Query) => withPairs('/search', filter, query),
  enqueue: (query?: Query) => withQuery('/enqueue', query),
  /** A queue's Locks tab; `key` focuses one lock (the one a task's badge names). */
  queueLocks: (qname: string, query?: Query) => withQuery(`/queues/${seg(qname)}`, { tab: 'locks', ...query }),
  duplicates: (qname: string, query?: Query) => withQuery(`/queues/${seg(qname)}/duplicates`, query),
  uniqueness: (query?: Query) => withQuery('/uniqueness', query),
  /** Failed tasks by error signature; `queue` filters, `type` (with `queue`) opens that not-found group. */
  failures: (query?: { queue?: string; type?: string }) => withQuery('/failures', query),
  /**
   * The fleet's routing verdicts and the pattern tester; `queue` narrows both, `type` points at
   * one type's verdicts, `verdict` filters them, `patterns` (one per line) makes a shareable test.
   */
  routing: (query?: { patterns?: string; queue?: string; type?: string; verdict?: string }) => withQuery('/routing', query),
};

/**
 * The base path the build serves under ('' or e.g. '/asynq'). Next prefixes its own links and
 * router pushes; fetches and plain anchors to the API need it added here.
 */
export const BASE_PATH = process.env.NEXT_PUBLIC_ASYNQLENS_BASE_PATH ?? '';

/** Every API path builder, returning its path under the base path. */
function underBasePath<T extends Record<string, (...args: never[]) => string>>(builders: T): T {
  if (BASE_PATH === '') return builders;
  const out: Record<string, (...args: never[]) => string> = {};
  for (const [name, build] of Object.entries(builders)) out[name] = (...args) => BASE_PATH + build(...args);
  return out as T;
}

export const apiPaths = underBasePath({
  health: () => '/api/health',
  queues: () => '/api/queues',
  snapshot: (query?: Query) => withQuery('/api/snapshot', query),
  snapshotStream: (query?: Query) => withQuery('/api/snapshot/stream', query),
  queue: (qname: string, query?: Query) => withQuery(`/api/queues/${seg(qname)}`, query),
  history: (qname: string, days: number) => withQuery(`/api/queues/${seg(qname)}/history`, { days }),
  groups: (qname: string) => `/api/queues/${seg(qname)}/groups`,
  archiveForecast: (qname: string, adding: number) => withQuery(`/api/queues/${seg(qname)}/archive-forecast`, { adding }),
  tasks: (qname: string, query: Query) => withQuery(`/api/queues/${seg(qname)}/tasks`, query),
  task: (qname: string, taskId: string) => `/api/queues/${seg(qname)}/tasks/${seg(taskId)}`,
  taskPayload: (qname: string, taskId: string) => `/api/queues/${seg(qname)}/tasks/${seg(taskId)}/payload`,
  taskReschedule: (qname: string, taskId: string) => `/api/queues/${seg(qname)}/tasks/${seg(taskId)}/reschedule`,
  taskAction: (qname: string, taskId: string, action: PostAction) =>
    `/api/queues/${seg(qname)}/tasks/${seg(taskId)}/${action}`,
  bulk: (qname: string) => `/api/queues/${seg(qname)}/bulk`,
  pause: (qname: string) => `/api/queues/${seg(qname)}/pause`,
  resume: (qname: string) => `/api/queues/${seg(qname)}/resume`,
  servers: () => '/api/servers',
  schedulers: () => '/api/schedulers',
  schedulerEvents: (entryId: string, page: number, size: number) =>
    withQuery(`/api/schedulers/${seg(entryId)}/events`, { page, size }),
  redis: () => '/api/redis',
  search: (filter: QueryPairs, page: { cursor?: string | null; size?: number }) => withPairs('/api/tasks/search', filter, page),
  searchAct: () => '/api/tasks/search/act',
  enqueue: (qname: string) => `/api/queues/${seg(qname)}/tasks`,
  enqueueReplacingArchived: (qname: string) => `/api/queues/${seg(qname)}/enqueue-replacing-archived`,
  enqueueCheck: (qname: string) => `/api/queues/${seg(qname)}/enqueue-check`,
  enqueueBatch: () => '/api/enqueue-batch',
  /** GET a page (`cursor`) or one lock (`key`); DELETE releases `key` while `holder` holds it. */
  locks: (qname: string, query?: Query) => withQuery(`/api/queues/${seg(qname)}/locks`, query),
  allLocks: (query?: Query) => withQuery('/api/locks', query),
  /** GET starts or continues the scan of `states`; DELETE (same query) cancels it. */
  duplicates: (qname: string, query: { states: string; samples?: number }) => withQuery(`/api/queues/${seg(qname)}/duplicates`, query),
  resolveDuplicates: (qname: string) => `/api/queues/${seg(qname)}/duplicates/resolve`,
  /** The triage scans: each GET continues the shared server-side scan, waiting up to `wait` ms. */
  failures: (query?: { queue?: string; limit?: number; wait?: number }) => withQuery('/api/failures', query),
  handlerNotFound: (query?: { queue?: string; wait?: number }) => withQuery('/api/handler-not-found', query),
  rerunNotFound: () => '/api/handler-not-found/rerun',
  /** What a re-run of (queue, type) would move now. */
  notFoundCount: (query: { queue: string; type: string }) => withQuery('/api/handler-not-found/count', query),
  taskTypes: (query?: { queue?: string; states?: string; wait?: number }) => withQuery('/api/task-types', query),
  routingExplain: () => '/api/routing/explain',
  routingPatterns: () => '/api/routing/patterns',
  /** Every (queue, type) verdict, or those of `queue`, or the one of (`queue`, `type`). */
  routingVerdicts: (query?: { queue?: string; type?: string; wait?: number }) => withQuery('/api/routing/verdicts', query),
});

/**
 * A dynamic segment as the page received it → the name it stands for. Next 16 hands pages their
 * params still percent-encoded (`/queues/work:main` arrives as `work%3Amain`, on full loads and
 * client navigations alike; route handlers get them decoded), so pages decode exactly once
 * here. A malformed escape (`%zz`) cannot come from our own links and is kept as typed.
 */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
