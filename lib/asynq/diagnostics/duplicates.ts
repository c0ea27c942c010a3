/**
 * Streams the tasks of chosen states of a queue through the duplicate grouper: a slice of IDs
 * with their msgs per call (SORT_RO ... GET), the next slice fetched while the previous one is
 * grouped. Every call is short (≤ 500 tasks, about 0.5 ms), so workers are served between
 * them; the scan stops when its signal is aborted.
 */
import { assertQueueSlot } from '../topology';
import type { RedisClient } from '../redis-client';
import { queueNotFound } from '../errors';
import * as k from '../keys';
import type { TaskState } from '../states';
import { asArray } from '../reply';
import { runScript } from '../scripts';
import { DuplicateGrouper, type DuplicateGroup } from './duplicate-groups';
import { readTaskMsg } from '../task-msg-view';
import { execPipeline } from '../scripts';

/** Every state but active (tasks being processed right now are not worth deduplicating). */
export const DEFAULT_DUPLICATE_STATES: readonly TaskState[] = ['pending', 'scheduled', 'retry', 'archived', 'completed', 'aggregating'];

export interface DuplicateScanOptions {
  states?: readonly TaskState[];
  /** Sample task IDs kept per group (default 20). */
  samples?: number;
  /** Tasks per Redis call (default and maximum 500); fewer for large msgs. */
  batchSize?: number;
  signal?: AbortSignal;
}

export interface DuplicateReport {
  /** The scan reached the end of every state. */
  complete: boolean;
  /** Tasks read so far. */
  scanned: number;
  /** Tasks in the chosen states when the scan started. */
  total: number;
  /** Tasks whose hash or msg was missing or unreadable (not grouped). */
  skipped: number;
  exactGroups: number;
  nearGroups: number;
  /** Tasks beyond the first of each exact group: what "keep one of each" would delete. */
  surplusTasks: number;
  /** Some near-duplicate shapes went untracked (more than 100,000 distinct JSON shapes). */
  nearCapped: boolean;
  /** The largest groups, largest first. */
  groups: DuplicateGroup[];
}

interface Source {
  stateIdx: number;
  key: string;
  kind: 'list' | 'zset';
}

/** Tasks per call: about 0.5 ms of Redis with SORT_RO beside a million tasks. */
const MAX_BATCH = 500;
/** Slices are sized to bring about this many msg bytes, so big payloads shrink them. */
const BATCH_BYTES = 4 * 1024 * 1024;

export interface DuplicateScan {
  /**
   * Checks the queue and sizes the chosen states (so `total` is known); run() does it when
   * not done yet. Throws queue_not_found.
   */
  prepare(): Promise<void>;
  /** Runs to the end (or until aborted). Rejects on a Redis error. */
  run(): Promise<void>;
  /** The groups found so far, the `limit` largest (default 200). Cheap enough to poll. */
  report(limit?: number): DuplicateReport;
}

/** The structures to read, in order: pending, then each zset state, then each group. */
async function listSources(redis: RedisClient, qname: string, states: readonly TaskState[]): Promise<Source[]> {
  const out: Source[] = [];
  for (const [stateIdx, state] of states.entries()) {
    if (state === 'pending' || state === 'active') {
      out.push({ stateIdx, kind: 'list', key: state === 'pending' ? k.pendingKey(qname) : k.activeKey(qname) });
    } else if (state === 'aggregating') {
      // SSCAN rather than SMEMBERS: a queue may have 100,000s of groups.
      let cursor = '0';
      do {
        const [next, names] = await redis.sscan(k.allGroups(qname), cursor, 'COUNT', 1000);
        for (const g of names) out.push({ stateIdx, kind: 'zset', key: k.groupKey(qname, g) });
        cursor = next;
      } while (cursor !== '0');
    } else {
      out.push({ stateIdx, kind: 'zset', key: `${k.queueKeyPrefix(qname)}${state}` });
    }
  }
  return out;
}

/** Sizes of the sources: one pipeline per 1,000 sources. */
async function countSources(redis: RedisClient, sources: readonly Source[]): Promise<number> {
  let total = 0;
  for (let i = 0; i < sources.length; i += 1000) {
    const replies = await execPipeline(redis, (p) => {
      for (const s of sources.slice(i, i + 1000)) {
        if (s.kind === 'list') p.llen(s.key);
        else p.zcard(s.key);
      }
    });
    for (const [, n] of replies) total += typeof n === 'number' ? n : 0;
  }
  return total;
}

interface Batch {
  stateIdx: number;
  /** id, msg (null when missing), id, msg, ... */
  items: unknown[];
}

/** Whether SORT_RO can read this queue's msgs: its GET pattern's first `*` must be the ID's. */
const sortable = (qname: string): boolean => !qname.includes('*');

/**
 * SORT_RO is missing before Redis 7.0, and refused with GET patterns to an ACL user limited to
 * some keys: either way the Lua path does the same read.
 */
function sortRefused(err: unknown): boolean {
  return err instanceof Error && /unknown command|NOPERM|denied|not allowed/i.test(err.message);
}

/**
 * One slice: `SORT_RO <key> BY nosort [DESC] LIMIT <offset> <n> GET # GET asynq:{q}:t:*->msg`,
 * which Redis answers from the slice alone (a list from its tail with DESC, a zset by rank) in
 * about 1 µs per task; read-task-msgs.lua where SORT_RO cannot be used.
 */
async function readSlice(redis: RedisClient, qname: string, src: Source, offset: number, n: number, useSort: { ok: boolean }): Promise<unknown[]> {
  if (useSort.ok) {
    const order = src.kind === 'list' ? ['DESC'] : [];
    try {
      return asArray(await redis.callBuffer('SORT_RO', src.key, 'BY', 'nosort', ...order, 'LIMIT', offset, n, 'GET', '#', 'GET', `${k.taskKeyPrefix(qname)}*->msg`), 'SORT_RO');
    } catch (err) {
      if (!sortRefused(err)) throw err;
      useSort.ok = false;
    }
  }
  return asArray(await runScript(redis, 'readTaskMsgs', [src.key], [src.kind, offset, n, k.taskKeyPrefix(qname)]), 'readTaskMsgs');
}

/**
 * Yields every source's tasks in slices of ≤ 500, one call each. A pending list is read from
 * its tail (oldest first), so tasks pushed at the head meanwhile never shift the window; tasks
 * dequeued meanwhile may be missed. A zset is read by rank. The slice size adapts to the msgs
 * seen so far, aiming at BATCH_BYTES per reply, and starts small in case they are huge.
 */
async function* batches(redis: RedisClient, qname: string, sources: readonly Source[], maxBatch: number): AsyncGenerator<Batch> {
  const useSort = { ok: sortable(qname) };
  let size = Math.min(10, maxBatch);
  for (const src of sources) {
    for (let offset = 0; ; ) {
      const asked = size;
      const items = await readSlice(redis, qname, src, offset, asked, useSort);
      const read = items.length / 2;
      if (read > 0) yield { stateIdx: src.stateIdx, items };
      offset += read;
      let bytes = 0;
      for (let i = 1; i < items.length; i += 2) bytes += Buffer.isBuffer(items[i]) ? (items[i] as Buffer).length : 0;
      if (read > 0) size = Math.max(10, Math.min(maxBatch, Math.floor(BATCH_BYTES / Math.max(1, bytes / read))));
      if (read < asked) break;
    }
  }
}

/**
 * A duplicate scan over `states` of queue `qname` (default: all but active). Nothing is read
 * until prepare() or run(). Round trips: SISMEMBER, then a few to size the states (one SSCAN
 * per 1,000 groups, one pipeline per 1,000 structures), then one per slice of ≤ 500 tasks.
 */
export function createDuplicateScan(redis: RedisClient, qname: string, opts: DuplicateScanOptions = {}): DuplicateScan {
  assertQueueSlot(redis, 'scanDuplicates', qname);
  const states = opts.states ?? DEFAULT_DUPLICATE_STATES;
  const grouper = new DuplicateGrouper(states, { samples: opts.samples ?? 20 });
  const progress = { complete: false, scanned: 0, total: 0, skipped: 0 };

  let sources: Source[] | null = null;

  async function prepare(): Promise<void> {
    if (sources) return;
    if ((await redis.sismember(k.ALL_QUEUES, qname)) !== 1) throw queueNotFound('scanDuplicates', qname);
    const found = await listSources(redis, qname, states);
    progress.total = await countSources(redis, found);
    sources = found;
  }

  async function run(): Promise<void> {
    await prepare();
    const it = batches(redis, qname, sources!, Math.min(opts.batchSize ?? MAX_BATCH, MAX_BATCH));
    let next = it.next();
    for (;;) {
      const cur = await next;
      if (cur.done) break;
      if (opts.signal?.aborted) {
        await it.return(undefined);
        return;
      }
      // Ask for the next batch before grouping this one, so Redis works while Node hashes.
      next = it.next();
      const { items, stateIdx } = cur.value;
      for (let i = 0; i < items.length; i += 2) {
        const id = items[i];
        const msg = items[i + 1];
        const fields = Buffer.isBuffer(msg) ? readTaskMsg(msg) : null;
        if (fields === null || !Buffer.isBuffer(id)) progress.skipped++;
        else grouper.add(id, stateIdx, fields.type, fields.payload);
      }
      progress.scanned += items.length / 2;
    }
    progress.complete = true;
  }

  function report(limit = 200): DuplicateReport {
    return {
      ...progress,
      exactGroups: grouper.exactGroups,
      nearGroups: grouper.nearGroups,
      surplusTasks: grouper.surplusTasks,
      nearCapped: grouper.nearCapped,
      groups: grouper.groups(limit),
    };
  }

  return { prepare, run, report };
}
