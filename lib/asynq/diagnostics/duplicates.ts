/**
 * Streams the tasks of chosen states of a queue through the duplicate grouper: IDs a batch at
 * a time (LRANGE / ZRANGE by rank), then their msgs in one pipeline, while the previous batch
 * is being grouped. Every Redis call is short (≤ 1,000 IDs), so workers are served between
 * them; the scan stops when its signal is aborted.
 */
import type { Redis } from 'ioredis';
import * as k from '../keys';
import type { TaskState } from '../states';
import { DuplicateGrouper, type DuplicateGroup } from './duplicate-groups';
import { readTaskFields } from './msg-fields';

/** Every state but active (tasks being processed right now are not worth deduplicating). */
export const DEFAULT_DUPLICATE_STATES: readonly TaskState[] = ['pending', 'scheduled', 'retry', 'archived', 'completed', 'aggregating'];

export interface DuplicateScanOptions {
  states?: readonly TaskState[];
  /** Sample task IDs kept per group (default 20). */
  samples?: number;
  /** IDs per Redis call (default and maximum 1,000); smaller for large msgs. */
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

const MAX_BATCH = 1000;
/** Aim for about this many msg bytes per pipeline, so big payloads shrink the batch. */
const BATCH_BYTES = 4 * 1024 * 1024;

export interface DuplicateScan {
  /** Runs to the end (or until aborted). Rejects on a Redis error. */
  run(): Promise<void>;
  /** The groups found so far, the `limit` largest (default 200). Cheap enough to poll. */
  report(limit?: number): DuplicateReport;
}

/** The structures to read, in order: pending, then each zset state, then each group. */
async function listSources(redis: Redis, qname: string, states: readonly TaskState[]): Promise<Source[]> {
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
async function countSources(redis: Redis, sources: readonly Source[]): Promise<number> {
  let total = 0;
  for (let i = 0; i < sources.length; i += 1000) {
    const p = redis.pipeline();
    for (const s of sources.slice(i, i + 1000)) {
      if (s.kind === 'list') p.llen(s.key);
      else p.zcard(s.key);
    }
    for (const [, n] of (await p.exec()) ?? []) total += typeof n === 'number' ? n : 0;
  }
  return total;
}

interface Batch {
  stateIdx: number;
  ids: Buffer[];
  msgs: (Buffer | null)[];
  bytes: number;
}

/**
 * Yields every source's tasks in batches: two round trips each (the IDs, then a pipeline of
 * HGET msg). A pending list is read from its tail (oldest first) with negative ranks, so new
 * tasks pushed at the head never shift the window; tasks dequeued meanwhile may be missed.
 */
async function* batches(redis: Redis, qname: string, sources: readonly Source[], maxBatch: number): AsyncGenerator<Batch> {
  const taskPrefix = Buffer.from(k.taskKeyPrefix(qname));
  let size = maxBatch;
  for (const src of sources) {
    for (let offset = 0; ; ) {
      const ids = src.kind === 'list'
        ? (await redis.lrangeBuffer(src.key, -(offset + size), -(offset + 1))).reverse()
        : await redis.zrangeBuffer(src.key, offset, offset + size - 1);
      if (ids.length === 0) break;
      const p = redis.pipeline();
      for (const id of ids) p.hgetBuffer(Buffer.concat([taskPrefix, id]), 'msg');
      const replies = (await p.exec()) ?? [];
      let bytes = 0;
      const msgs = replies.map(([err, v]) => {
        if (err || !Buffer.isBuffer(v)) return null;
        bytes += v.length;
        return v;
      });
      yield { stateIdx: src.stateIdx, ids, msgs, bytes };
      if (ids.length < size) break;
      offset += ids.length;
      const next = Math.floor(BATCH_BYTES / Math.max(1, bytes / ids.length));
      size = Math.max(10, Math.min(maxBatch, next));
    }
  }
}

/**
 * A duplicate scan over `states` of queue `qname` (default: all but active). Nothing is read
 * until run(). Round trips: a few to size the states, then two per batch of ≤ 1,000 tasks.
 */
export function createDuplicateScan(redis: Redis, qname: string, opts: DuplicateScanOptions = {}): DuplicateScan {
  const states = opts.states ?? DEFAULT_DUPLICATE_STATES;
  const grouper = new DuplicateGrouper(states, { samples: opts.samples ?? 20 });
  const progress = { complete: false, scanned: 0, total: 0, skipped: 0 };

  async function run(): Promise<void> {
    const sources = await listSources(redis, qname, states);
    progress.total = await countSources(redis, sources);
    const it = batches(redis, qname, sources, Math.min(opts.batchSize ?? MAX_BATCH, MAX_BATCH));
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
      const b = cur.value;
      b.ids.forEach((id, i) => {
        const msg = b.msgs[i];
        const fields = msg ? readTaskFields(msg) : null;
        if (fields === null) progress.skipped++;
        else grouper.add(id, b.stateIdx, fields.type, fields.payload);
      });
      progress.scanned += b.ids.length;
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

  return { run, report };
}
