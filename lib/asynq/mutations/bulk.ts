/**
 * Bulk run / archive / delete, by a list of IDs or over every task in a state, in batches of
 * at most 500 per script call, each sized by what the last one cost in Redis
 * (call-sizer.ts) to stay near 1 ms (even beside a million tasks), so
 * production workers keep being served between calls. Each batch is atomic, so no task is
 * ever half-moved. Long runs report progress and stop when asked. An archive ends with the
 * archive trimmed to asynq's limits (archive-trim.ts), as asynq's one script leaves it.
 */
import type { RedisClient } from '../redis-client';
import { invalidArgument, type AsynqError } from '../errors';
import * as k from '../keys';
import { asArray, asNumber, asText } from '../reply';
import { loadScript, runScript } from '../scripts';
import type { TaskState } from '../states';
import { CALL_BUDGET_US, callsInFlight, createCallSizer } from '../call-sizer';
import { archiveCutoff, MAX_ARCHIVE_SIZE } from './archive-limits';
import { ACTION_STATES, moveError, type MoveAction } from './move-codes';
import { assertQueueExists } from '../inspector/queues';
import { moveArgs } from './task-actions';
import { trimArchive } from './archive-trim';

export const MAX_BATCH = 500;
const MIN_BATCH = 10;
const FIRST_BATCH = 100;

export interface BulkOptions {
  /** Needed for aggregating tasks: the group to act on. */
  group?: string | undefined;
  batchSize?: number;
  signal?: AbortSignal;
  onProgress?: (p: { done: number; total: number }) => void;
  now?: () => Date;
  /** The zone an archive's 90 days are counted in (archive-limits.ts); UTC by default. */
  timeZone?: string | undefined;
}

export interface BulkResult {
  succeeded: number;
  failed: { id: string; error: AsynqError }[];
  /** Tasks asynq's archive limit (9 999 newest, 90 days) removed to make room. */
  trimmed: number;
  /** True when the signal stopped it before the end. */
  stopped: boolean;
}

function checkAction(op: string, action: MoveAction, state: string): void {
  if (!ACTION_STATES[action].includes(state)) {
    throw invalidArgument(op, 'state', `cannot ${action} tasks in ${state} state`);
  }
}

/**
 * Acts on the given tasks, which must be in `state`. One round trip per call of at most 500
 * IDs, each sized by the Redis time move-tasks.lua reports for the last one, plus the queue
 * check; a call the script cuts short at CALL_BUDGET_US (a pending task deep in a long list
 * costs a walk of the list) leaves its other IDs to the next call. A task that is missing,
 * active or in another state is reported in `failed` and left untouched.
 */
export async function bulkByIds(redis: RedisClient, qname: string, action: MoveAction, state: string, ids: readonly string[], opts: BulkOptions = {}): Promise<BulkResult> {
  const op = `bulk${action}`;
  checkAction(op, action, state);
  await assertQueueExists(redis, op, qname);
  const now = opts.now ?? (() => new Date());
  const max = Math.max(1, Math.min(opts.batchSize ?? MAX_BATCH, MAX_BATCH));
  const sizer = createCallSizer({ first: FIRST_BATCH, min: Math.min(MIN_BATCH, max), max });
  const out: BulkResult = { succeeded: 0, failed: [], trimmed: 0, stopped: false };
  /** Whether a call left archive members due for trimming (archive-trim.ts takes them). */
  let due = false;
  for (let i = 0; i < ids.length; ) {
    if (opts.signal?.aborted) {
      // Trimmed in full even when stopped, as in bulkAll.
      if (due) out.trimmed += await trimArchive(redis, qname, now(), opts.timeZone);
      return { ...out, stopped: true };
    }
    const chunk = ids.slice(i, i + sizer.size);
    const { keys, args } = moveArgs(qname, action, state, chunk, now(), opts.timeZone);
    const reply = asArray(await runScript(redis, 'moveTasks', keys, args), 'moveTasks').map((c) => asNumber(c) ?? 0);
    // { code per ID handled..., trimmed, still due, elapsed µs }: it handles at least one ID.
    const handled = Math.max(1, Math.min(chunk.length, reply.length - 3));
    sizer.observe(handled, reply[handled + 2] ?? 0);
    due ||= (reply[handled + 1] ?? 0) > 0;
    chunk.slice(0, handled).forEach((id, j) => {
      const code = reply[j] ?? 0;
      if (code === 1) out.succeeded++;
      else out.failed.push({ id, error: moveError(op, action, code, qname, id, state) });
    });
    out.trimmed += reply[handled] ?? 0;
    i += handled;
    opts.onProgress?.({ done: i, total: ids.length });
  }
  if (due) out.trimmed += await trimArchive(redis, qname, now(), opts.timeZone);
  return out;
}

/** One move-all.lua call's reply. */
interface MoveAllReply {
  asked: number;
  moved: number;
  trimmed: number;
  /** Tasks left in the structure after the call. */
  remaining: number;
  /** The script's time in Redis, µs. */
  us: number;
  /** Archive members still due for trimming after the call. */
  due: number;
  failed: { id: string; code: number }[];
}

/**
 * Acts on every task in `state` at the moment it starts (tasks added meanwhile may be
 * included; the run never goes past the starting count plus one batch, so a busy producer
 * cannot keep it going forever). One SCRIPT LOAD first (so no call compiles the script beside
 * its batch), then one round trip per batch, as many outstanding as fit in the in-flight
 * budget (call-sizer.ts: 4 ms of Redis time, 4-5 calls of a 500-task batch), each sized by
 * the Redis time the script reports for the last one.
 *
 * Tasks that cannot move (their hash says another state) stay at the front of the structure;
 * each call skips the ones known so far. A call sent before an earlier one's reply may
 * therefore meet some of them again: it leaves them again, and each is reported once.
 */
export async function bulkAll(redis: RedisClient, qname: string, action: MoveAction, state: string, opts: BulkOptions = {}): Promise<BulkResult> {
  const op = `${action}All`;
  checkAction(op, action, state);
  if (state === 'aggregating' && !opts.group) throw invalidArgument(op, 'group', 'group is required for aggregating tasks');
  await assertQueueExists(redis, op, qname);
  const now = opts.now ?? (() => new Date());
  const max = Math.max(1, Math.min(opts.batchSize ?? MAX_BATCH, MAX_BATCH));
  const sizer = createCallSizer({ first: FIRST_BATCH, min: Math.min(MIN_BATCH, max), max });
  // checkAction let through only states the action may take tasks from: never active.
  const src = k.stateKey(qname, state as TaskState, opts.group ?? '');
  const total = state === 'pending' ? await redis.llen(src) : await redis.zcard(src);
  const out: BulkResult = { succeeded: 0, failed: [], trimmed: 0, stopped: false };
  const failedIds = new Set<string>();
  const keys = [src, k.pendingKey(qname), k.archivedKey(qname), k.allGroups(qname)];
  await loadScript(redis, 'moveAll', src);

  const call = async (asked: number, skip: number): Promise<MoveAllReply> => {
    const t = now();
    const reply = asArray(
      await runScript(redis, 'moveAll', keys, [
        action, state, k.queueKeyPrefix(qname), Math.floor(t.getTime() / 1000), archiveCutoff(t, opts.timeZone), MAX_ARCHIVE_SIZE,
        k.uniqueKeyPrefix(qname), asked, skip, opts.group ?? '', CALL_BUDGET_US,
      ]),
      'moveAll',
    );
    const failed: MoveAllReply['failed'] = [];
    for (let i = 5; i < reply.length; i += 2) failed.push({ id: asText(reply[i]) ?? '', code: asNumber(reply[i + 1]) ?? 0 });
    const n = (i: number) => asNumber(reply[i]) ?? 0;
    return { asked, moved: n(0), trimmed: n(1), remaining: n(2), us: n(3), due: n(4), failed };
  };

  const inFlight: { asked: number; reply: Promise<MoveAllReply> }[] = [];
  /** Tasks the structure held after the last answered call, less those asked by calls in flight. */
  let left = total;
  let ended = false;
  /** Whether a call left archive members due for trimming (archive-trim.ts takes them). */
  let due = false;
  const canSend = () =>
    !ended && !opts.signal?.aborted && out.succeeded + failedIds.size < total + max && left - inFlight.reduce((a, c) => a + c.asked, 0) > failedIds.size;
  try {
    for (;;) {
      while (inFlight.length < callsInFlight(sizer.expectedUs) && canSend()) {
        const size = sizer.size;
        const reply = call(size, failedIds.size);
        reply.catch(() => undefined); // awaited in order below; never an unhandled rejection
        inFlight.push({ asked: size, reply });
      }
      const next = inFlight.shift();
      if (!next) break;
      const r = await next.reply;
      out.succeeded += r.moved;
      out.trimmed += r.trimmed;
      due ||= r.due > 0;
      for (const f of r.failed) {
        if (failedIds.has(f.id)) continue;
        failedIds.add(f.id);
        out.failed.push({ id: f.id, error: moveError(op, action, f.code, qname, f.id, state) });
      }
      sizer.observe(r.moved + r.failed.length, r.us);
      left = r.remaining;
      opts.onProgress?.({ done: Math.min(out.succeeded + out.failed.length, total), total });
      // A call handles at least 8 tasks before its time budget can stop it: none means the
      // structure holds nothing past the tasks left in place.
      if (r.moved === 0 && r.failed.length === 0) ended = true;
    }
  } catch (err) {
    // No call of this bulk is left running unobserved when it fails.
    await Promise.allSettled(inFlight.map((c) => c.reply));
    throw err;
  }
  out.stopped = Boolean(opts.signal?.aborted) && !ended && left > failedIds.size;
  // Trimmed in full even when stopped: the tasks archived so far are the action's, and so is
  // what their archiving pushed past asynq's limits.
  if (due) out.trimmed += await trimArchive(redis, qname, now(), opts.timeZone);
  return out;
}
