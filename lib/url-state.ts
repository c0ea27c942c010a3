/**
 * The view state each page keeps in its URL, so any view can be shared as a link. One parser
 * per page turns loose search params (from a server page's `searchParams` or the browser's
 * `useSearchParams`) into a checked value; anything malformed falls back to the default
 * rather than erroring, since URLs get hand-edited and truncated.
 */
import type { TaskStateDto } from '@/lib/contract/tasks';

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
