/**
 * The view state each page keeps in its URL, so any view can be shared as a link. One parser
 * per page turns loose search params (from a server page's `searchParams` or the browser's
 * `useSearchParams`) into a checked value; anything malformed falls back to the default
 * rather than erroring, since URLs get hand-edited and truncated.
 */
import type { LockDto } from '@/lib/contract/diagnostics';
import type { SEARCH_TIME_PARAMS } from '@/lib/contract/search';
import type { SEARCH_LIST_PARAMS, SEARCH_TEXT_PARAMS } from '@/lib/contract/search-scope';
import type { TaskStateDto } from '@/lib/contract/tasks';
import type { QueryPairs } from '@/lib/paths';

export type SearchParamsLike = URLSearchParams | Record<string, string | string[] | undefined>;

/** Every state, in asynq's order. A type import only: the list must not pull zod into the bundle. */
export const TASK_STATES = ['pending', 'active', 'scheduled', 'retry', 'archived', 'completed', 'aggregating'] as const satisfies readonly TaskStateDto[];
/** Fails to compile if the contract gains a state this list lacks. */
const _everyState: Record<TaskStateDto, true> = Object.fromEntries(TASK_STATES.map((s) => [s, true])) as Record<(typeof TASK_STATES)[number], true>;
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const HISTORY_DAYS = [7, 14, 30, 90] as const;

function get(sp: SearchParamsLike, key: string): string | undefined {
  if (sp instanceof URLSearchParams) return sp.get(key) ?? undefined;
  const v = sp[key];
  return Array.isArray(v) ? v[0] : v;
}

function oneOf<T extends string | number>(value: string | undefined, allowed: readonly T[], fallback: NoInfer<T>): T {
  const found = allowed.find((a) => String(a) === value);
  return found ?? fallback;
}

function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

export interface QueueViewState {
  state: TaskStateDto;
  page: number;
  size: number;
  /** Only meaningful for the aggregating state. */
  group: string | undefined;
  /** The tab's filter, a search query ('' = the plain list); it stays as the tabs change. */
  q: string;
}

export function parseQueueView(sp: SearchParamsLike): QueueViewState {
  const state = oneOf(get(sp, 'state'), TASK_STATES, 'pending');
  return {
    state,
    page: positiveInt(get(sp, 'page'), 1),
    size: oneOf(get(sp, 'size'), PAGE_SIZES, 20),
    group: state === 'aggregating' ? get(sp, 'group') || undefined : undefined,
    q: (get(sp, 'q') ?? '').trim(),
  };
}

export interface OverviewViewState {
  days: number;
  /** '' for every queue together, else one queue's name. */
  chart: string;
  /** The queue table's page (of the queues matching `q`). */
  page: number;
  /** Queue-name filter of the table ('' = every queue). */
  q: string;
}

export function parseOverviewView(sp: SearchParamsLike): OverviewViewState {
  return {
    days: oneOf(get(sp, 'days'), HISTORY_DAYS, 14),
    chart: get(sp, 'chart') ?? '',
    page: positiveInt(get(sp, 'page'), 1),
    q: (get(sp, 'q') ?? '').slice(0, 200),
  };
}

/** The overview's address for `view` (defaults left out). */
export const overviewQuery = (v: Partial<OverviewViewState>) => ({
  days: v.days === 14 ? undefined : v.days,
  chart: v.chart,
  page: v.page === 1 ? undefined : v.page,
  q: v.q,
});

export interface SchedulersViewState {
  entry: string | undefined;
  page: number;
}

export function parseSchedulersView(sp: SearchParamsLike): SchedulersViewState {
  return { entry: get(sp, 'entry') || undefined, page: positiveInt(get(sp, 'page'), 1) };
}

export interface RedisViewState {
  filter: string;
}

export function parseRedisView(sp: SearchParamsLike): RedisViewState {
  return { filter: get(sp, 'q') ?? '' };
}

export interface ServersViewState {
  /** The server whose workers are expanded. */
  open: string | undefined;
}

export function parseServersView(sp: SearchParamsLike): ServersViewState {
  return { open: get(sp, 'open') || undefined };
}

type LockFindingCode = LockDto['findings'][number]['code'];
/** Lock findings, most severe first. Re-declared (the contract's enum would bring zod along). */
export const LOCK_FINDINGS = ['held_by_archived', 'orphaned', 'expires_before_retries_end', 'no_expiry'] as const satisfies readonly LockFindingCode[];
/** Fails to compile if the contract gains a finding this list lacks. */
const _everyFinding: Record<LockFindingCode, true> = Object.fromEntries(LOCK_FINDINGS.map((f) => [f, true])) as Record<(typeof LOCK_FINDINGS)[number], true>;
/** A lock table's filter: one finding, or the locks with none. */
export type LockFilter = LockFindingCode | 'healthy';
const LOCK_FILTERS: readonly LockFilter[] = [...LOCK_FINDINGS, 'healthy'];

const lockFilter = (v: string | undefined): LockFilter | undefined => LOCK_FILTERS.find((f) => f === v);

export interface QueueTabState {
  /** The state tabs' task table, or the queue's unique locks. */
  tab: 'tasks' | 'locks';
  /** The lock to focus (a task's badge links here with its lock key). */
  key: string | undefined;
  finding: LockFilter | undefined;
}

export function parseQueueTab(sp: SearchParamsLike): QueueTabState {
  const tab = oneOf(get(sp, 'tab'), ['tasks', 'locks'] as const, 'tasks');
  if (tab === 'tasks') return { tab, key: undefined, finding: undefined };
  return { tab, key: get(sp, 'key') || undefined, finding: lockFilter(get(sp, 'finding')) };
}

export interface UniquenessViewState {
  finding: LockFilter | undefined;
  /** '' for every queue. */
  queue: string;
}

export function parseUniquenessView(sp: SearchParamsLike): UniquenessViewState {
  return { finding: lockFilter(get(sp, 'finding')), queue: get(sp, 'queue') ?? '' };
}

export const DUPLICATE_KINDS = ['all', 'exact', 'near'] as const;
export type DuplicateKindFilter = (typeof DUPLICATE_KINDS)[number];
/** What a duplicate scan reads unless told otherwise, as the API does: every state but active. */
export const DUPLICATE_DEFAULT_STATES: TaskStateDto[] = TASK_STATES.filter((s) => s !== 'active');

export interface DuplicatesViewState {
  /** In asynq's order, never empty. */
  states: TaskStateDto[];
  kind: DuplicateKindFilter;
  /** Whether the scan was asked for (a shared link starts it too). */
  scan: boolean;
}

export function parseDuplicatesView(sp: SearchParamsLike): DuplicatesViewState {
  const listed = (get(sp, 'states') ?? '').split(',');
  const states = TASK_STATES.filter((s) => listed.includes(s));
  return {
    states: states.length > 0 ? states : DUPLICATE_DEFAULT_STATES,
    kind: oneOf(get(sp, 'kind'), DUPLICATE_KINDS, 'all'),
    scan: get(sp, 'scan') === '1',
  };
}

/**
 * The search filter's parameter names, as GET /api/tasks/search takes them. Re-declared here
 * (lib/contract/search.ts would bring zod into the bundle); the `satisfies` and the records
 * below fail to compile if the two lists drift apart.
 */
export const SEARCH_REPEATABLE = ['queue', 'state', 'type', 'typePrefix'] as const satisfies readonly (typeof SEARCH_LIST_PARAMS)[number][];
export const SEARCH_TIMES = [
  'lastFailedAfter', 'lastFailedBefore', 'nextRunAfter', 'nextRunBefore', 'completedAfter', 'completedBefore',
] as const satisfies readonly (typeof SEARCH_TIME_PARAMS)[number][];
const SEARCH_ONCE = ['q', 'id', 'payload', 'error', 'minRetried', ...SEARCH_TIMES] as const;
const _lists: Record<(typeof SEARCH_LIST_PARAMS)[number], true> = { queue: true, state: true, type: true, typePrefix: true };
const _texts: Record<(typeof SEARCH_TEXT_PARAMS)[number], true> = { id: true, payload: true, error: true, q: true };
const _times: Record<(typeof SEARCH_TIME_PARAMS)[number], true> = {
  lastFailedAfter: true, lastFailedBefore: true, nextRunAfter: true, nextRunBefore: true, completedAfter: true, completedBefore: true,
};

export type FilterPair = readonly [key: string, value: string];

/** Whether the API accepts `key` as a filter parameter (payload.<path> and header.<key> included). */
export function isFilterKey(key: string): boolean {
  if ((SEARCH_REPEATABLE as readonly string[]).includes(key) || (SEARCH_ONCE as readonly string[]).includes(key)) return true;
  return (key.startsWith('payload.') && key.length > 8) || (key.startsWith('header.') && key.length > 7);
}

export const isRepeatable = (key: string): boolean => (SEARCH_REPEATABLE as readonly string[]).includes(key);

/**
 * Adds pairs to a filter: repeatable keys gather values (an exact repeat is dropped, and
 * `state=a,b` becomes two states); any other key keeps only its last value.
 */
export function mergeFilter(base: QueryPairs, add: QueryPairs): FilterPair[] {
  const out: FilterPair[] = [...base];
  for (const [key, raw] of add) {
    const values = key === 'state' ? raw.split(',').map((s) => s.trim()).filter(Boolean) : [raw];
    for (const value of values) {
      if (isRepeatable(key)) {
        if (!out.some(([k, v]) => k === key && v === value)) out.push([key, value]);
      } else {
        const at = out.findIndex(([k]) => k === key);
        if (at >= 0) out[at] = [key, value];
        else out.push([key, value]);
      }
    }
  }
  return out;
}

export interface SearchViewState {
  /** The API's parameters, the search query `q` among them (the box shows it; chips the rest). */
  filter: FilterPair[];
  /** Parameters that are not filters (a hand-edited URL): dropped, and said so. */
  ignored: string[];
}

export function parseSearchView(sp: SearchParamsLike): SearchViewState {
  const entries: [string, string][] =
    sp instanceof URLSearchParams
      ? [...sp.entries()]
      : Object.entries(sp).flatMap(([k, v]) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x])));
  const pairs = entries.filter(([k, v]) => isFilterKey(k) && v.trim() !== '');
  const ignored = [...new Set(entries.map(([k]) => k).filter((k) => !isFilterKey(k)))];
  return { filter: mergeFilter([], pairs), ignored };
}

export interface EnqueueViewState {
  queue: string;
  /** A task ID in `queue` whose fields fill the form. */
  clone: string | undefined;
  tab: 'one' | 'batch';
}

export function parseEnqueueView(sp: SearchParamsLike): EnqueueViewState {
  return { queue: get(sp, 'queue') || 'default', clone: get(sp, 'clone') || undefined, tab: get(sp, 'tab') === 'batch' ? 'batch' : 'one' };
}

export interface FailuresViewState {
  /** '' for every queue. */
  queue: string;
  /** With `queue`: the not-found group of this task type to open and scroll to (a task page links here). */
  type: string | undefined;
}

export function parseFailuresView(sp: SearchParamsLike): FailuresViewState {
  return { queue: get(sp, 'queue') ?? '', type: get(sp, 'type') || undefined };
}

export const ROUTE_FILTERS = ['all', 'warning', 'none', 'prefix', 'exact'] as const;
export type RouteFilter = (typeof ROUTE_FILTERS)[number];

/** The Routing page's filter over the fleet's verdicts. */
export const VERDICT_FILTERS = ['all', 'conflict', 'not_handled', 'aggregated', 'handled', 'unknown'] as const;
export type VerdictFilter = (typeof VERDICT_FILTERS)[number];

export interface RoutingViewState {
  /** The pasted patterns, one per line; undefined when the URL has none (the saved ones apply). */
  patterns: string | undefined;
  show: RouteFilter;
  /** The queue whose task types are routed ('' for every queue): the ones the deployment listens on. */
  queue: string;
  verdict: VerdictFilter;
  /** A task type to point at (a Failures or task page links here). */
  type: string | undefined;
}

export function parseRoutingView(sp: SearchParamsLike): RoutingViewState {
  return {
    patterns: get(sp, 'patterns'),
    show: oneOf(get(sp, 'show'), ROUTE_FILTERS, 'all'),
    queue: get(sp, 'queue') ?? '',
    verdict: oneOf(get(sp, 'verdict'), VERDICT_FILTERS, 'all'),
    type: get(sp, 'type') || undefined,
  };
}
