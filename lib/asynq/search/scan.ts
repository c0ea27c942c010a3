/**
 * The bounded scan under every search: reads the chosen structures in order, a rank range per
 * script call, and hands each task to a visitor until the visitor has enough, the read budget
 * is spent, the signal aborts, or every structure is read. Redis is never blocked for long:
 * each call reads at most 1,000 tasks (and about 512 KiB of msgs), sized by the one call sizer
 * (call-sizer.ts) from the Redis time the script reports for the previous call, to
 * stay near 1 ms, and cut short by the script itself at CALL_BUDGET_US (2 ms) when its tasks
 * cost more than the last call's; workers are served between calls. The next batch is requested while
 * the visitor works on the current one.
 */
import type { RedisClient } from '../redis-client';
import * as k from '../keys';
import { asArray } from '../reply';
import { runScript } from '../scripts';
import { isWrongType } from '../inspector/wrong-type';
import type { ScanPosition } from './cursor';
import type { ScanRow } from './predicate';
import { stateIndex, type TaskState } from '../states';
import type { Structure } from '../task-source/structures';
import { structuresFrom } from './sources';
import { CALL_BUDGET_US, createCallSizer } from '../call-sizer';

/** Tasks per script call at most (about 2.5 ms of Redis time with 200-byte msgs). */
export const MAX_SCAN_BATCH = 1000;
/** The first call's size, before any is measured: about 0.5 ms with 200-byte msgs. */
const FIRST_BATCH = 200;
const MIN_BATCH = 10;
/** Msg bytes per script call, so large payloads shrink the batch instead of lengthening it. */
const BYTE_CAP = 512 * 1024;

/** `next`: keep going; `stop`: stop after this row; `before`: stop before it (not consumed). */
export type Visit = 'next' | 'stop' | 'before';

export interface ScanOptions {
  queues: readonly string[];
  states: readonly TaskState[];
  from: ScanPosition | null;
  /** Tasks to read from Redis at most (prefetched ones included). */
  budget: number;
  batchSize?: number | undefined;
  signal?: AbortSignal | undefined;
  visit(row: ScanRow, structure: Structure): Visit;
}

export interface ScanResult {
  /** Where to resume; null when every structure has been read to its end. */
  next: ScanPosition | null;
  /** Tasks handed to the visitor (and consumed). */
  examined: number;
  /** Tasks read from Redis, prefetched ones included: never more than the budget. */
  read: number;
  /** Why it stopped. */
  reason: 'done' | 'budget' | 'visitor' | 'aborted';
}

interface Batch {
  rows: ScanRow[];
  /** The structure has no tasks past this batch. */
  ended: boolean;
  /** Time the script ran inside Redis, µs. */
  redisUs: number;
}

/**
 * One script call: the tasks at ranks [offset, offset + count) with their msgs, or the first of
 * them, when the byte cap or the time budget (CALL_BUDGET_US) cut the call short.
 */
async function readBatch(redis: RedisClient, s: Structure, offset: number, count: number): Promise<Batch> {
  let reply: (Buffer | number | null)[];
  try {
    reply = asArray(
      await runScript(redis, 'searchRange', [s.key], [s.kind, offset, count, k.taskKeyPrefix(s.queue), BYTE_CAP, CALL_BUDGET_US]),
      'searchRange',
    ) as (Buffer | number | null)[];
  } catch (err) {
    // A structure of another type than asynq writes holds no task the search can read: it is
    // passed over (the queue list marks its queue unreadable), not a failure of the search.
    if (isWrongType(err)) return { rows: [], ended: true, redisUs: 0 };
    throw err;
  }
  const rows: ScanRow[] = [];
  for (let i = 2; i + 2 < reply.length; i += 3) {
    const msg = (reply[i + 1] ?? null) as Buffer | null;
    const score = reply[i + 2] as Buffer | null;
    rows.push({ state: s.state, id: reply[i] as Buffer, msg, score: score ? Number(score.toString()) : null });
  }
  const cut = Number(reply[1] ?? 0) === 1;
  return { rows, ended: rows.length < count && !cut, redisUs: Number(reply[0] ?? 0) };
}

const at = (s: Structure, offset: number): ScanPosition => ({ queue: s.queue, state: stateIndex(s.state), group: s.group, offset });

/**
 * Scans from `opts.from`. Round trips: one to size the structures, one per non-empty
 * structure reached, one per batch (overlapped with the visitor), and for a queue's
 * aggregating state one per 1,000 groups.
 */
export async function scan(redis: RedisClient, opts: ScanOptions): Promise<ScanResult> {
  const max = Math.max(1, Math.min(opts.batchSize ?? MAX_SCAN_BATCH, MAX_SCAN_BATCH));
  const sizer = createCallSizer({ first: FIRST_BATCH, min: Math.min(MIN_BATCH, max), max });
  let read = 0;
  let examined = 0;
  const fetch = (s: Structure, offset: number): Promise<Batch> | null => {
    const count = Math.min(sizer.size, opts.budget - read);
    if (count <= 0) return null;
    read += count; // reserved now, settled when the batch arrives
    return readBatch(redis, s, offset, count).then((b) => {
      read -= count - b.rows.length;
      return b;
    });
  };
  // An abandoned prefetch is awaited before answering: its rows count as read, and no call of
  // this scan is left running after it returns.
  const finish = async (next: ScanPosition, reason: ScanResult['reason'], pending: Promise<Batch> | null): Promise<ScanResult> => {
    await pending?.catch(() => null);
    return { next, examined, read, reason };
  };
  for await (const { structure: s, offset: start } of structuresFrom(redis, opts.queues, opts.states, opts.from)) {
    let offset = start;
    if (opts.signal?.aborted) return finish(at(s, offset), 'aborted', null);
    let pending = fetch(s, offset);
    if (!pending) return finish(at(s, offset), 'budget', null);
    while (pending) {
      const batch: Batch = await pending;
      sizer.observe(batch.rows.length, batch.redisUs);
      const after = offset + batch.rows.length;
      pending = batch.ended ? null : fetch(s, after);
      for (let i = 0; i < batch.rows.length; i++) {
        const v = opts.visit(batch.rows[i]!, s);
        if (v === 'before') return finish(at(s, offset + i), 'visitor', pending);
        if (v === 'stop') {
          examined++;
          return finish(at(s, offset + i + 1), 'visitor', pending);
        }
        examined++;
      }
      offset = after;
      if (opts.signal?.aborted) return finish(at(s, offset), 'aborted', pending);
      if (!batch.ended && !pending) return finish(at(s, offset), 'budget', null);
    }
  }
  return { next: null, examined, read, reason: 'done' };
}
