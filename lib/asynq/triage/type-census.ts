/**
 * Which task types are in Redis, per queue and state, with counts: what the routing explainer
 * checks against a deployment's patterns ("these types have pending tasks and no route").
 */
import type { RedisClient } from '../redis-client';
import { byName } from '../compare';
import { TASK_STATES, type TaskState } from '../states';
import { scanQueues } from '../task-source/queues';
import { forEachSlice, type Slice } from '../task-source/slices';
import { listStructures, type Structure } from '../task-source/structures';
import { noteUnreadable, readableStructures, readTasks, type ScanProgress, type TaskScan } from '../task-source/task-scan';

/** Distinct (queue, type) pairs tracked; tasks of further pairs are only counted. */
export const MAX_TYPES = 10_000;

/** One task type in one queue, with its tasks per state. */
export interface TypeCount {
  queue: string;
  taskType: string;
  counts: Record<TaskState, number>;
  total: number;
}

/** What a census reads. */
export interface TypeCensusOptions {
  queue?: string | undefined;
  /** Default: every state. */
  states?: readonly TaskState[];
  maxSlice?: number;
  signal?: AbortSignal;
}

/** A census so far; final once `complete`. */
export interface TypeCensusReport extends ScanProgress {
  /** Tasks of (queue, type) pairs beyond the first 10,000 (counted, not listed). */
  untracked: number;
  queues: string[];
  states: TaskState[];
  /** Sorted by queue, then type. */
  types: TypeCount[];
}

/** A census: report() is cheap to poll. */
export interface TypeCensus extends TaskScan {
  report(): TypeCensusReport;
}

const zeroCounts = (): Record<TaskState, number> => Object.fromEntries(TASK_STATES.map((s) => [s, 0])) as Record<TaskState, number>;

/**
 * A census of `opts.states` in `opts.queue` (or every queue). Redis cost: a queue check or
 * SMEMBERS, one pipeline of sizes, then one call per ≤ 500 tasks (task-source/slices.ts); only
 * the type field of each msg is decoded.
 */
export function createTypeCensus(redis: RedisClient, opts: TypeCensusOptions = {}): TypeCensus {
  const states = [...(opts.states ?? TASK_STATES)];
  const r = { complete: false, scanned: 0, total: 0, skipped: 0, unreadable: [] as string[], untracked: 0, queues: [] as string[] };
  const types = new Map<string, TypeCount>();
  let sources: Structure[] | null = null;

  async function prepare(): Promise<void> {
    if (sources) return;
    const queues = await scanQueues(redis, 'listTaskTypes', opts.queue === undefined ? undefined : [opts.queue]);
    const found: Structure[] = [];
    for (const q of queues) found.push(...(await listStructures(redis, q, states, noteUnreadable(r))));
    const { sources: readable, sizes } = await readableStructures(redis, found, r);
    r.total = sizes.reduce((a, b) => a + b, 0);
    r.queues = queues;
    sources = readable;
  }

  function count(src: Structure, type: string): void {
    const key = JSON.stringify([src.queue, type]);
    let t = types.get(key);
    if (!t) {
      if (types.size >= MAX_TYPES) {
        r.untracked++;
        return;
      }
      t = { queue: src.queue, taskType: type, counts: zeroCounts(), total: 0 };
      types.set(key, t);
    }
    t.counts[src.state]++;
    t.total++;
  }

  function countSlice(slice: Slice): void {
    readTasks(slice, r, (msg) => count(slice.source, msg.typeText));
  }

  async function run(): Promise<void> {
    await prepare();
    await forEachSlice(redis, sources!, countSlice, { maxSlice: opts.maxSlice, signal: opts.signal, onUnreadable: noteUnreadable(r) });
    if (opts.signal?.aborted) return;
    r.complete = true;
  }

  function report(): TypeCensusReport {
    const list = [...types.values()].sort((a, b) => byName(a.queue, b.queue) || byName(a.taskType, b.taskType));
    return { ...r, total: Math.max(r.total, r.scanned), queues: [...r.queues], states, types: list.map((t) => ({ ...t, counts: { ...t.counts } })) };
  }

  return { prepare, run, report };
}
