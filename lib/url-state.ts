/**
 * The view state each page keeps in its URL, so any view can be shared as a link. One parser
 * per page turns loose search params (from a server page's `searchParams` or the browser's
 * `useSearchParams`) into a checked value; anything malformed falls back to the default
 * rather than erroring, since URLs get hand-edited and truncated.
 */
import type { SEARCH_LIST_PARAMS, SEARCH_TEXT_PARAMS, SEARCH_TIME_PARAMS } from '@/lib/contract/search';
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
}

export function parseQueueView(sp: SearchParamsLike): QueueViewState {
  const state = oneOf(get(sp, 'state'), TASK_STATES, 'pending');
  return {
    state,
    page: positiveInt(get(sp, 'page'), 1),
    size: oneOf(get(sp, 'size'), PAGE_SIZES, 20),
    group: state === 'aggregating' ? get(sp, 'group') || undefined : undefined,
  };
}

export interface OverviewViewState {
  days: number;
  /** '' for every queue together, else one queue's name. */
  chart: string;
}

export function parseOverviewView(sp: SearchParamsLike): OverviewViewState {
  return { days: oneOf(get(sp, 'days'), HISTORY_DAYS, 14), chart: get(sp, 'chart') ?? '' };
}

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

/**
 * The search filter's parameter names, as GET /api/tasks/search takes them. Re-declared here
 * (lib/contract/search.ts would bring zod into the bundle); the `satisfies` and the records
 * below fail to compile if the two lists drift apart.
 */
export const SEARCH_REPEATABLE = ['queue', 'state', 'type', 'typePrefix'] as const satisfies readonly (typeof SEARCH_LIST_PARAMS)[number][];
export const SEARCH_TIMES = [
  'lastFailedAfter', 'lastFailedBefore', 'nextRunAfter', 'nextRunBefore', 'completedAfter', 'completedBefore',
] as const satisfies readonly (typeof SEARCH_TIME_PARAMS)[number][];
const SEARCH_ONCE = ['id', 'payload', 'error', 'minRetried', ...SEARCH_TIMES] as const;
const _lists: Record<(typeof SEARCH_LIST_PARAMS)[number], true> = { queue: true, state: true, type: true, typePrefix: true };
const _texts: Record<(typeof SEARCH_TEXT_PARAMS)[number], true> = { id: true, payload: true, error: true };
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
  filter: FilterPair[];
  /** Text from the shell's search box, still to be turned into filters. */
  q: string | undefined;
  /** Parameters that are not filters (a hand-edited URL): dropped, and said so. */
  ignored: string[];
}

export function parseSearchView(sp: SearchParamsLike): SearchViewState {
  const entries: [string, string][] =
    sp instanceof URLSearchParams
      ? [...sp.entries()]
      : Object.entries(sp).flatMap(([k, v]) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x])));
  const pairs = entries.filter(([k, v]) => isFilterKey(k) && v !== '');
  const ignored = [...new Set(entries.map(([k]) => k).filter((k) => k !== 'q' && !isFilterKey(k)))];
  return { filter: mergeFilter([], pairs), q: get(sp, 'q')?.trim() || undefined, ignored };
}
