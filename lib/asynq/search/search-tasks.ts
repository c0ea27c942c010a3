/**
 * One page of a task search across queues and states. Each call does a bounded amount of
 * Redis work (the read budget) and returns a cursor to resume from, so a search over millions
 * of tasks is a series of short requests the client can stop at any time.
 */
import type { RedisClient } from '../redis-client';
import { invalidArgument } from '../errors';
import { TASK_STATES, type TaskState } from '../states';
import type { TaskInfo } from '../types';
import { findById } from './by-id';
import { decodeCursor, encodeCursor, type SearchCursor } from './cursor';
import { filterFingerprint, type SearchFilter } from './filter';
import { hydrate, type Match } from './hydrate';
import { compilePredicate, NEXT_RUN_STATES } from './predicate';
import { scan } from './scan';
import { scanQueues } from '../task-source/queues';
import { countTasks } from './sources';

/** Tasks read from Redis per request at most (default and maximum for the HTTP API). */
export const DEFAULT_SCAN_BUDGET = 5000;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface SearchOptions {
  /** From the previous page; absent to start. */
  cursor?: string | undefined;
  /** Matches per page, 1-100 (default 20): the request stops early once it has them. */
  size?: number | undefined;
  /** Tasks to read from Redis in this request at most (default 5,000). */
  budget?: number | undefined;
  /** Tasks per Redis call (default and maximum 1,000). */
  batchSize?: number | undefined;
  signal?: AbortSignal | undefined;
  now?: Date | undefined;
}

export interface SearchPage {
  /** This page's matches, in scan order, each read in full. */
  tasks: TaskInfo[];
  /** Pass it back for the next page; null when the search is complete. */
  cursor: string | null;
  /** Tasks examined so far, earlier pages included. */
  scanned: number;
  /** Tasks in the chosen queues and states when the search started. */
  total: number;
  /** Matches so far, earlier pages included. */
  matched: number;
  /** Tasks this request read from Redis (never more than the budget). */
  read: number;
}

/** The states to scan, in asynq's order: the filter's, else all (only those with a next run for nextRun*). */
export function chosenStates(filter: SearchFilter): TaskState[] {
  const wanted = filter.states?.length ? filter.states : filter.nextRunAfter || filter.nextRunBefore ? NEXT_RUN_STATES : TASK_STATES;
  return TASK_STATES.filter((s) => wanted.includes(s));
}

function checkCount(field: string, n: number, min: number, max: number): void {
  if (!Number.isInteger(n) || n < min || n > max) throw invalidArgument('searchTasks', field, `${field} must be an integer from ${min} to ${max}`);
}

/**
 * Finds tasks matching `filter`. Throws queue_not_found for a named queue that does not exist
 * (first page only) and invalid_argument for a bad cursor, size or budget.
 * Round trips: with an ID, two (the queues, then every queue's task in one pipeline);
 * otherwise one for the queues, one to size the structures (first page only: the total; it
 * rides in the cursor), one to size the structures left, one per script call of ≤ 1,000 tasks
 * (overlapped with filtering), and one to read the page's matches in full.
 */
export async function searchTasks(redis: RedisClient, filter: SearchFilter, opts: SearchOptions = {}): Promise<SearchPage> {
  const size = opts.size ?? DEFAULT_PAGE_SIZE;
  const budget = opts.budget ?? DEFAULT_SCAN_BUDGET;
  checkCount('size', size, 1, MAX_PAGE_SIZE);
  checkCount('budget', budget, 1, Number.MAX_SAFE_INTEGER);
  const now = opts.now ?? new Date();
  const fingerprint = filterFingerprint(filter);
  const prev: SearchCursor | null = opts.cursor ? decodeCursor(opts.cursor, fingerprint) : null;
  const queues = await scanQueues(redis, 'searchTasks', filter.queues, prev === null);
  const states = chosenStates(filter);
  const predicate = compilePredicate(filter);

  if (filter.id !== undefined) {
    const { found, examined } = await findById(redis, filter.id, queues, states, !filter.states?.length, predicate, now);
    return { tasks: found.slice(0, size).map((r) => r.info), cursor: null, scanned: examined, total: examined, matched: found.length, read: examined };
  }

  const total = prev?.total ?? (await countTasks(redis, queues, states));
  const matches: Match[] = [];
  const nowSec = now.getTime() / 1000;
  const result = await scan(redis, {
    queues,
    states,
    from: prev?.position ?? null,
    budget,
    batchSize: opts.batchSize,
    signal: opts.signal,
    visit(row, s) {
      if (!predicate(row, nowSec)) return 'next';
      matches.push({ queue: s.queue, state: s.state, id: row.id.toString('utf8') });
      return matches.length >= size ? 'stop' : 'next';
    },
  });
  const tasks = await hydrate(redis, matches, now);
  const scanned = (prev?.scanned ?? 0) + result.examined;
  const matched = (prev?.matched ?? 0) + matches.length;
  const cursor = result.next ? encodeCursor({ filter: fingerprint, position: result.next, scanned, total, matched }) : null;
  return { tasks, cursor, scanned, total, matched, read: result.read };
}
