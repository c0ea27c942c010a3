/**
 * Reads the tasks of one state of one queue as a sequence of short Redis calls, each returning
 * at most 500 IDs with their msgs, so a scan over a million tasks never holds Redis for more
 * than about half a millisecond at a time and workers are served between calls.
 *
 * Reads are plain read-only commands (no Lua): they run on replicas and under a read-only ACL.
 */
import type { RedisClient } from '../redis-client';
import * as k from '../keys';
import { asArray } from '../reply';
import type { TaskState } from '../states';
import { execPipeline } from '../scripts';

/** One Redis structure holding task IDs: a list (pending, active) or a zset. */
export interface Source {
  queue: string;
  state: TaskState;
  key: string;
  kind: 'list' | 'zset';
}

/** A slice: the IDs read and their msgs (null when the hash or its msg is missing). */
export interface Slice {
  ids: string[];
  msgs: (Buffer | null)[];
}

/** Tasks per Redis call, at most: about 0.5 ms of Redis with SORT_RO beside a million tasks. */
export const MAX_SLICE = 500;
/** Slices are sized to bring about this many msg bytes, so big payloads shrink them. */
const SLICE_BYTES = 4 * 1024 * 1024;

/**
 * The structures of `states` in `qname`: one per state, one per aggregation group. SSCAN, not
 * SMEMBERS, for the groups: a queue may have 100,000s. One round trip per 1,000 groups.
 */
export async function listSources(redis: RedisClient, qname: string, states: readonly TaskState[]): Promise<Source[]> {
  const out: Source[] = [];
  for (const state of states) {
    if (state === 'pending') out.push({ queue: qname, state, kind: 'list', key: k.pendingKey(qname) });
    else if (state === 'active') out.push({ queue: qname, state, kind: 'list', key: k.activeKey(qname) });
    else if (state !== 'aggregating') out.push({ queue: qname, state, kind: 'zset', key: `${k.queueKeyPrefix(qname)}${state}` });
    else {
      let cursor = '0';
      do {
        const [next, names] = await redis.sscan(k.allGroups(qname), cursor, 'COUNT', 1000);
        for (const g of names) out.push({ queue: qname, state, kind: 'zset', key: k.groupKey(qname, g) });
        cursor = next;
      } while (cursor !== '0');
    }
  }
  return out;
}

/** The number of IDs in each source. One round trip per 1,000 sources (LLEN / ZCARD). */
export async function sizeSources(redis: RedisClient, sources: readonly Source[]): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < sources.length; i += 1000) {
    const replies = await execPipeline(redis, (p) => {
      for (const s of sources.slice(i, i + 1000)) {
        if (s.kind === 'list') p.llen(s.key);
        else p.zcard(s.key);
      }
    });
    for (const [, n] of replies) out.push(typeof n === 'number' ? n : 0);
  }
  return out;
}

/** SORT_RO is missing before Redis 7.0, and refused with GET patterns to key-limited ACL users. */
const sortRefused = (err: unknown): boolean => err instanceof Error && /unknown command|NOPERM|denied|not allowed/i.test(err.message);

/**
 * One slice of `n` tasks from `offset`. `SORT_RO <key> BY nosort [DESC] LIMIT o n GET #
 * GET asynq:{q}:t:*->msg` answers from the slice alone (a list from its tail, oldest first; a
 * zset by rank), about 1 µs per task. Where SORT_RO cannot be used (old Redis, ACL, a queue
 * name holding SORT's `*` placeholder) it is LRANGE/ZRANGE plus one pipeline of HGETs: two
 * round trips, same bounds.
 */
async function readSlice(redis: RedisClient, src: Source, offset: number, n: number, useSort: { ok: boolean }): Promise<Slice> {
  if (useSort.ok) {
    const order = src.kind === 'list' ? ['DESC'] : [];
    try {
      const reply = asArray(await redis.callBuffer('SORT_RO', src.key, 'BY', 'nosort', ...order, 'LIMIT', offset, n, 'GET', '#', 'GET', `${k.taskKeyPrefix(src.queue)}*->msg`), 'SORT_RO');
      const ids: string[] = [];
      const msgs: (Buffer | null)[] = [];
      for (let i = 0; i < reply.length; i += 2) {
        ids.push((reply[i] as Buffer).toString('utf8'));
        const m = reply[i + 1];
        msgs.push(Buffer.isBuffer(m) ? m : null);
      }
      return { ids, msgs };
    } catch (err) {
      if (!sortRefused(err)) throw err;
      useSort.ok = false;
    }
  }
  const ids =
    src.kind === 'list'
      ? (await redis.lrange(src.key, -(offset + n), -(offset + 1))).reverse()
      : await redis.zrange(src.key, offset, offset + n - 1);
  if (ids.length === 0) return { ids, msgs: [] };
  const replies = await execPipeline(redis, (p) => {
    for (const id of ids) p.hgetBuffer(k.taskKey(src.queue, id), 'msg');
  });
  return { ids, msgs: replies.map(([, m]) => (Buffer.isBuffer(m) ? m : null)) };
}

/** How {@link readSlices} reads. */
export interface SliceOptions {
  /** Tasks per call, at most (and by default) 500. */
  maxSlice?: number;
  signal?: AbortSignal;
}

/**
 * Every task of `src` in slices, oldest first. Tasks pushed onto a pending list meanwhile never
 * shift the window (they land at the head); tasks removed meanwhile may make it skip a few, as
 * any paging over a changing set does. The slice size starts at 10 and adapts to the msgs seen,
 * aiming at 4 MiB per reply, so a queue of 1 MiB payloads reads 4 at a time.
 */
export async function* readSlices(redis: RedisClient, src: Source, opts: SliceOptions = {}): AsyncGenerator<Slice> {
  const max = Math.min(opts.maxSlice ?? MAX_SLICE, MAX_SLICE);
  const useSort = { ok: !src.queue.includes('*') };
  let size = Math.min(10, max);
  for (let offset = 0; !opts.signal?.aborted; ) {
    const asked = size;
    const slice = await readSlice(redis, src, offset, asked, useSort);
    if (slice.ids.length > 0) yield slice;
    offset += slice.ids.length;
    if (slice.ids.length < asked) return;
    let bytes = 0;
    for (const m of slice.msgs) bytes += m?.length ?? 0;
    size = Math.max(1, Math.min(max, Math.floor(SLICE_BYTES / Math.max(1, bytes / slice.ids.length))));
  }
}

/**
 * Calls `onSlice` for every slice of `src`, asking Redis for the next slice before handling the
 * current one, so Redis and Node work at the same time. Stops between slices when the signal
 * is aborted.
 */
export async function forEachSlice(redis: RedisClient, src: Source, onSlice: (s: Slice) => void, opts: SliceOptions = {}): Promise<void> {
  const it = readSlices(redis, src, opts);
  let next = it.next();
  for (;;) {
    const cur = await next;
    if (cur.done) return;
    if (opts.signal?.aborted) {
      await it.return(undefined);
      return;
    }
    next = it.next();
    onSlice(cur.value);
  }
}
