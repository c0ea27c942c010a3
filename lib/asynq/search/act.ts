/**
 * Run, archive or delete every task a filter matches, or count them first. The scan is the
 * search's (short Redis calls, never a long script) and the changes go through bulkByIds (at
 * most 500 tasks per script call), a chunk of matches at a time, so memory stays bounded
 * however many tasks match.
 */
import type { RedisClient } from '../redis-client';
import { invalidArgument, type AsynqError } from '../errors';
import { bulkByIds } from '../mutations/bulk';
import { ACTION_STATES, type MoveAction } from '../mutations/move-codes';
import { stateIndex, type TaskState } from '../states';
import { findById } from './by-id';
import type { ScanPosition } from './cursor';
import type { SearchFilter } from './filter';
import { compilePredicate, type RowPredicate } from './predicate';
import { scan } from './scan';
import { scanQueues } from '../task-source/queues';
import type { Structure } from '../task-source/structures';
import { countTasks } from './sources';
import { chosenStates } from './search-tasks';

/** Matches collected before they are acted on. */
const ACT_CHUNK = 5000;
/** Failures listed one by one at most; the rest are only counted. */
export const MAX_LISTED_FAILURES = 1000;

export interface ActProgress {
  scanned: number;
  total: number;
  matched: number;
  succeeded: number;
  failed: number;
}

export interface ActOptions {
  signal?: AbortSignal | undefined;
  batchSize?: number | undefined;
  onProgress?: ((p: ActProgress) => void) | undefined;
  now?: (() => Date) | undefined;
  /** The zone an archive's 90 days are counted in (mutations/archive-limits.ts); UTC by default. */
  timeZone?: string | undefined;
}

export interface ActFailure {
  id: string;
  queue: string;
  error: AsynqError;
}

export interface ActResult extends ActProgress {
  /** The first MAX_LISTED_FAILURES failures; `failed` counts them all. */
  failures: ActFailure[];
  /** Tasks asynq's archive limit removed to make room (archive only). */
  trimmed: number;
  /** Preview only: the matches per queue, so an archive can be checked against each queue's limit. */
  matchedByQueue: Record<string, number>;
  /** The signal stopped it before the end. */
  stopped: boolean;
}

/** The chosen states the action can take tasks from; invalid_argument when there are none. */
function actionableStates(filter: SearchFilter, action: MoveAction): TaskState[] {
  const states = chosenStates(filter).filter((s) => ACTION_STATES[action].includes(s));
  if (states.length === 0) {
    throw invalidArgument('actOnMatches', 'state', `cannot ${action} tasks in ${(filter.states ?? []).join(', ')} state`);
  }
  return states;
}

interface Run {
  redis: RedisClient;
  queues: string[];
  states: TaskState[];
  predicate: RowPredicate;
  preview: boolean;
  opts: ActOptions;
  now: () => Date;
  out: ActResult;
  /** Acts on `ids` of one structure; resolves with how many left it. */
  apply(queue: string, state: string, ids: string[]): Promise<number>;
}

function countMatch(out: ActResult, queue: string): void {
  out.matchedByQueue[queue] = (out.matchedByQueue[queue] ?? 0) + 1;
}

/** The ID fast path: at most one task per queue, looked up directly. */
async function actById(run: Run, id: string): Promise<void> {
  const { found, examined } = await findById(run.redis, id, run.queues, run.states, false, run.predicate, run.now());
  Object.assign(run.out, { scanned: examined, total: examined, matched: found.length });
  if (run.preview) for (const { info } of found) countMatch(run.out, info.queue);
  for (const { info } of found) await run.apply(info.queue, info.state, [info.id]);
}

/**
 * Scans until a chunk of one structure's matches is collected, acts on it, and resumes the
 * scan where it stopped, moved up by the tasks that left the structure (they sat before the
 * resume point). Preview never stops to act: it only counts.
 */
async function actByScan(run: Run): Promise<void> {
  const { out, opts } = run;
  out.total = await countTasks(run.redis, run.queues, run.states);
  let from: ScanPosition | null = null;
  let nextReport = 10_000;
  do {
    let current: Structure | null = null;
    const ids: string[] = [];
    const nowSec = run.now().getTime() / 1000;
    const r = await scan(run.redis, {
      queues: run.queues, states: run.states, from, budget: Infinity, batchSize: opts.batchSize, signal: opts.signal,
      visit(row, s) {
        if (!run.preview && current !== null && current.key !== s.key && ids.length > 0) return 'before';
        current = s;
        if (++out.scanned >= nextReport) {
          nextReport += 10_000;
          opts.onProgress?.({ ...out });
        }
        if (!run.predicate(row, nowSec)) return 'next';
        out.matched++;
        if (run.preview) {
          countMatch(out, s.queue);
          return 'next';
        }
        ids.push(row.id.toString('utf8'));
        return ids.length >= ACT_CHUNK ? 'stop' : 'next';
      },
    });
    const s = current as Structure | null;
    const removed = s ? await run.apply(s.queue, s.state, ids) : 0;
    const same = r.next && s && r.next.queue === s.queue && r.next.state === stateIndex(s.state) && r.next.group === s.group;
    from = r.next && same ? { ...r.next, offset: Math.max(0, r.next.offset - removed) } : r.next;
    if (r.reason === 'aborted') out.stopped = true;
  } while (from !== null && !out.stopped);
}

/**
 * Applies `action` to every match, or with `preview` only counts them (what the action would
 * touch: states the action cannot take tasks from, such as active, are not scanned). Throws
 * invalid_argument when no chosen state allows the action, queue_not_found for a named queue
 * that does not exist. Progress is reported every 10,000 tasks scanned and at the end.
 * Round trips: the scan's, plus one per ≤ 500 matches acted on and a queue check per 5,000.
 */
export async function actOnMatches(redis: RedisClient, filter: SearchFilter, action: MoveAction, preview: boolean, opts: ActOptions = {}): Promise<ActResult> {
  const states = actionableStates(filter, action);
  const queues = await scanQueues(redis, 'searchTasks', filter.queues);
  const now = opts.now ?? (() => new Date());
  const out: ActResult = { scanned: 0, total: 0, matched: 0, succeeded: 0, failed: 0, failures: [], trimmed: 0, matchedByQueue: Object.create(null) as Record<string, number>, stopped: false };
  const run: Run = {
    redis, queues, states, predicate: compilePredicate(filter), preview, opts, now, out,
    async apply(queue, state, ids) {
      if (preview || ids.length === 0) return 0;
      const r = await bulkByIds(redis, queue, action, state, ids, { signal: opts.signal, batchSize: opts.batchSize, now, timeZone: opts.timeZone });
      out.succeeded += r.succeeded;
      out.failed += r.failed.length;
      out.trimmed += r.trimmed;
      for (const f of r.failed.slice(0, MAX_LISTED_FAILURES - out.failures.length)) out.failures.push({ ...f, queue });
      if (r.stopped) out.stopped = true;
      return r.succeeded;
    },
  };
  if (filter.id !== undefined) await actById(run, filter.id);
  else await actByScan(run);
  opts.onProgress?.({ ...out });
  return out;
}
