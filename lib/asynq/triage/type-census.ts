/**
 * Which task types are in Redis, per queue and state, with counts: what the routing explainer
 * checks against a deployment's patterns ("these types have pending tasks and no route").
 */
import { assertQueueSlot, readableQueues } from '../topology';
import type { RedisClient } from '../redis-client';
import { queueNotFound } from '../errors';
import { listQueueNames } from '../inspector/queues';
import * as k from '../keys';
import { TASK_STATES, type TaskState } from '../states';
import { byText } from './compare';
import { readTaskMsg } from '../task-msg-view';
import { forEachSlice, listSources, sizeSources, type Source } from './slices';

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
export interface TypeCensusReport {
  complete: boolean;
  scanned: number;
  total: number;
  /** Tasks whose hash or msg was missing or unreadable. */
  skipped: number;
  /** Tasks of (queue, type) pairs beyond the first 10,000 (counted, not listed). */
  untracked: number;
  queues: string[];
  states: TaskState[];
  /** Sorted by queue, then type. */
  types: TypeCount[];
}

/** A census: prepare() sizes it (and checks the queue), run() reads, report() is cheap to poll. */
export interface TypeCensus {
  prepare(): Promise<void>;
  run(): Promise<void>;
  report(): TypeCensusReport;
}

const zeroCounts = (): Record<TaskState, number> => Object.fromEntries(TASK_STATES.map((s) => [s, 0])) as Record<TaskState, number>;

/**
 * A census of `opts.states` in `opts.queue` (or every queue). Redis cost: a queue check or
 * SMEMBERS, one pipeline of sizes, then one call per ≤ 500 tasks (slices.ts); only the type
 * field of each msg is decoded.
 */
export function createTypeCensus(redis: RedisClient, opts: TypeCensusOptions = {}): TypeCensus {
  const states = [...(opts.states ?? TASK_STATES)];
  const r = { complete: false, scanned: 0, total: 0, skipped: 0, untracked: 0, queues: [] as string[] };
  const types = new Map<string, TypeCount>();
  let sources: Source[] | null = null;

  async function prepare(): Promise<void> {
    if (sources) return;
    let queues: string[];
    if (opts.queue !== undefined) assertQueueSlot(redis, 'listTaskTypes', opts.queue);
    if (opts.queue === undefined) queues = readableQueues(redis, await listQueueNames(redis));
    else if ((await redis.sismember(k.ALL_QUEUES, opts.queue)) === 1) queues = [opts.queue];
    else throw queueNotFound('listTaskTypes', opts.queue);
    const found: Source[] = [];
    for (const q of queues) found.push(...(await listSources(redis, q, states)));
    r.total = (await sizeSources(redis, found)).reduce((a, b) => a + b, 0);
    r.queues = queues;
    sources = found;
  }

  function count(src: Source, type: string): void {
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

  async function run(): Promise<void> {
    await prepare();
    for (const src of sources!) {
      await forEachSlice(redis, src, (s) => {
        for (const msg of s.msgs) {
          const type = msg ? (readTaskMsg(msg)?.typeText ?? null) : null;
          if (type === null) r.skipped++;
          else count(src, type);
        }
        r.scanned += s.ids.length;
      }, { maxSlice: opts.maxSlice, signal: opts.signal });
      if (opts.signal?.aborted) return;
    }
    r.complete = true;
  }

  function report(): TypeCensusReport {
    const list = [...types.values()].sort((a, b) => byText(a.queue, b.queue) || byText(a.taskType, b.taskType));
    return { ...r, total: Math.max(r.total, r.scanned), queues: [...r.queues], states, types: list.map((t) => ({ ...t, counts: { ...t.counts } })) };
  }

  return { prepare, run, report };
}
