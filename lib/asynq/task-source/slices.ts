/**
 * Reads the tasks of a sequence of structures as short Redis calls, each returning at most 500
 * IDs with their msgs, each sized by the one call sizer (call-sizer.ts) from the last call's
 * duration, so a scan over a million tasks holds Redis near 1 ms at a time at most and
 * workers are served between calls. Under the duplicate scan, failure triage, the type census
 * and re-runs.
 */
import type { RedisClient } from '../redis-client';
import * as k from '../keys';
import { asArray } from '../reply';
import { runScript } from '../scripts';
import type { Structure } from './structures';
import { isWrongType } from '../inspector/wrong-type';
import { createCallSizer, usSince } from '../call-sizer';

/** A slice of one structure: the IDs read and their msgs (null when the hash or its msg is missing). */
export interface Slice {
  source: Structure;
  ids: Buffer[];
  msgs: (Buffer | null)[];
}

/** Tasks per Redis call, at most: about 0.5 ms of Redis with SORT_RO beside a million tasks. */
export const MAX_SLICE = 500;
/** Slices are sized to bring about this many msg bytes, so big payloads shrink them. */
const SLICE_BYTES = 4 * 1024 * 1024;

/** How a scan reads its slices. */
export interface SliceOptions {
  /** Tasks per call, at most (and by default) 500. */
  maxSlice?: number | undefined;
  signal?: AbortSignal | undefined;
  /**
   * Called for a structure whose key holds another type than asynq writes (WRONGTYPE): it is
   * skipped, read as empty, and the scan goes on with the next one.
   */
  onUnreadable?: ((source: Structure) => void) | undefined;
}

/**
 * SORT_RO is missing before Redis 7.0, and refused with GET patterns to an ACL user limited to
 * some keys: either way read-task-msgs.lua does the same read.
 */
const sortRefused = (err: unknown): boolean => err instanceof Error && /unknown command|NOPERM|denied|not allowed/i.test(err.message);

/**
 * One slice of `n` tasks from `offset`: `SORT_RO <key> BY nosort [DESC] LIMIT o n GET # GET
 * asynq:{q}:t:*->msg`, which Redis answers from the slice alone (a list from its tail, oldest
 * first; a zset by rank) in about 1 µs per task. Where SORT_RO cannot be used (old Redis, an
 * ACL, a queue name holding SORT's `*` placeholder) read-task-msgs.lua does the same read in
 * one call, about 5 µs per task. `reader.sort` turns false at the first refusal.
 */
async function readSlice(redis: RedisClient, src: Structure, offset: number, n: number, reader: { sort: boolean }): Promise<unknown[]> {
  if (reader.sort && !src.queue.includes('*')) {
    const order = src.kind === 'list' ? ['DESC'] : [];
    try {
      return asArray(await redis.callBuffer('SORT_RO', src.key, 'BY', 'nosort', ...order, 'LIMIT', offset, n, 'GET', '#', 'GET', `${k.taskKeyPrefix(src.queue)}*->msg`), 'SORT_RO');
    } catch (err) {
      if (!sortRefused(err)) throw err;
      reader.sort = false;
    }
  }
  return asArray(await runScript(redis, 'readTaskMsgs', [src.key], [src.kind, offset, n, k.taskKeyPrefix(src.queue)]), 'readTaskMsgs');
}

/**
 * Every task of `sources`, in order, in slices of one call each. A pending list is read from its
 * tail (oldest first), so tasks pushed at its head meanwhile never shift the window; tasks
 * removed meanwhile may make it skip a few, as any paging over a changing set does. The slice
 * size starts at 10 and carries over from one structure to the next; it is the smaller of the
 * call sizer's (SORT_RO reports no time of its own: the call's duration as seen here, round trip
 * and any wait for this process included, so never an under-estimate) and the size that brings
 * about 4 MiB of msgs (a queue of 1 MiB payloads reads 4 at a time). Stops before the next call
 * once the signal is aborted.
 */
export async function* readSlices(redis: RedisClient, sources: readonly Structure[], opts: SliceOptions = {}): AsyncGenerator<Slice> {
  const max = Math.min(opts.maxSlice ?? MAX_SLICE, MAX_SLICE);
  const reader = { sort: true };
  const sizer = createCallSizer({ first: 10, min: 1, max });
  let byBytes = max;
  for (const source of sources) {
    for (let offset = 0; ; ) {
      if (opts.signal?.aborted) return;
      const asked = Math.min(sizer.size, byBytes);
      const started = performance.now();
      let items: unknown[];
      try {
        items = await readSlice(redis, source, offset, asked, reader);
      } catch (err) {
        if (!isWrongType(err)) throw err;
        opts.onUnreadable?.(source);
        break;
      }
      const slice: Slice = { source, ids: [], msgs: [] };
      let bytes = 0;
      for (let i = 0; i + 1 < items.length; i += 2) {
        const msg = items[i + 1];
        slice.ids.push(items[i] as Buffer);
        slice.msgs.push(Buffer.isBuffer(msg) ? msg : null);
        if (Buffer.isBuffer(msg)) bytes += msg.length;
      }
      const read = slice.ids.length;
      sizer.observe(read, usSince(started));
      if (read > 0) yield slice;
      offset += read;
      if (read < asked) break;
      byBytes = Math.max(1, Math.min(max, Math.floor(SLICE_BYTES / Math.max(1, bytes / read))));
    }
  }
}

/**
 * Calls `onSlice` for every slice of `sources`, asking Redis for the next slice before handling
 * the current one, so Redis and Node work at the same time. Returns early, without handling the
 * slice in hand, once the signal is aborted.
 */
export async function forEachSlice(redis: RedisClient, sources: readonly Structure[], onSlice: (s: Slice) => void, opts: SliceOptions = {}): Promise<void> {
  const it = readSlices(redis, sources, opts);
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
