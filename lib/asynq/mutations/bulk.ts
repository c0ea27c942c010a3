/**
 * Bulk run / archive / delete, by a list of IDs or over every task in a state, in batches of
 * at most 500 per script call, sized as it goes to keep each call near 2 ms (even beside a
 * million tasks), so production workers keep being served between calls. Each batch is
 * atomic, so no task is ever half-moved. Long runs report progress and stop when asked.
 */
import type { RedisClient } from '../redis-client';
import { invalidArgument, type AsynqError } from '../errors';
import * as k from '../keys';
import { asArray, asNumber, asText } from '../reply';
import { runScript } from '../scripts';
import type { TaskState } from '../states';
import { archiveCutoff, MAX_ARCHIVE_SIZE } from './archive-limits';
import { ACTION_STATES, moveError, type MoveAction } from './move-codes';
import { assertQueueExists } from '../inspector/queues';
import { moveArgs } from './task-actions';

export const MAX_BATCH = 500;
const MIN_BATCH = 25;
/** Target time of one script call; the hard limit is 5 ms, leaving room for a busy server. */
const TARGET_MS = 2;

/**
 * Sizes the next batch from how long the last one took, so each call stays near 2 ms whatever
 * the tasks cost (a msg scan for grouped unique tasks, a long pending list to search).
 */
export function nextBatchSize(current: number, elapsedMs: number, max: number): number {
  if (elapsedMs > TARGET_MS * 1.5) return Math.max(MIN_BATCH, Math.floor(current / 2));
  if (elapsedMs < TARGET_MS / 2) return Math.min(max, current * 2);
  return current;
}

export interface BulkOptions {
  /** Needed for aggregating tasks: the group to act on. */
  group?: string | undefined;
  batchSize?: number;
  signal?: AbortSignal;
  onProgress?: (p: { done: number; total: number }) => void;
  now?: () => Date;
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
 * Acts on the given tasks, which must be in `state`. One round trip per 500 IDs, plus the
 * queue check. A task that is missing, active or in another state is reported in `failed`
 * and left untouched.
 */
export async function bulkByIds(redis: RedisClient, qname: string, action: MoveAction, state: string, ids: readonly string[], opts: BulkOptions = {}): Promise<BulkResult> {
  const op = `bulk${action}`;
  checkAction(op, action, state);
  await assertQueueExists(redis, op, qname);
  const now = opts.now ?? (() => new Date());
  const max = Math.min(opts.batchSize ?? MAX_BATCH, MAX_BATCH);
  let size = Math.min(100, max);
  const out: BulkResult = { succeeded: 0, failed: [], trimmed: 0, stopped: false };
  for (let i = 0; i < ids.length; ) {
    if (opts.signal?.aborted) return { ...out, stopped: true };
    const chunk = ids.slice(i, i + size);
    i += chunk.length;
    const { keys, args } = moveArgs(qname, action, state, chunk, now());
    const started = performance.now();
    const codes = asArray(await runScript(redis, 'moveTasks', keys, args), 'moveTasks').map((c) => asNumber(c) ?? 0);
    const elapsed = performance.now() - started;
    chunk.forEach((id, j) => {
      const code = codes[j] ?? 0;
      if (code === 1) out.succeeded++;
      else out.failed.push({ id, error: moveError(op, action, code, qname, id, state) });
    });
    out.trimmed += codes[chunk.length] ?? 0;
    opts.onProgress?.({ done: i, total: ids.length });
    size = nextBatchSize(size, elapsed, max);
  }
  return out;
}

/**
 * Acts on every task in `state` at the moment it starts (tasks added meanwhile may be
 * included; the run never goes past the starting count plus one batch, so a busy producer
 * cannot keep it going forever). One round trip per batch of 500.
 */
export async function bulkAll(redis: RedisClient, qname: string, action: MoveAction, state: string, opts: BulkOptions = {}): Promise<BulkResult> {
  const op = `${action}All`;
  checkAction(op, action, state);
  if (state === 'aggregating' && !opts.group) throw invalidArgument(op, 'group', 'group is required for aggregating tasks');
  await assertQueueExists(redis, op, qname);
  const now = opts.now ?? (() => new Date());
  const max = Math.min(opts.batchSize ?? MAX_BATCH, MAX_BATCH);
  let size = Math.min(100, max);
  // checkAction let through only states the action may take tasks from: never active.
  const src = k.stateKey(qname, state as TaskState, opts.group ?? '');
  const total = state === 'pending' ? await redis.llen(src) : await redis.zcard(src);
  const out: BulkResult = { succeeded: 0, failed: [], trimmed: 0, stopped: false };
  let skip = 0;
  while (out.succeeded + out.failed.length < total + max) {
    if (opts.signal?.aborted) return { ...out, stopped: true };
    const t = now();
    const started = performance.now();
    const reply = asArray(
      await runScript(redis, 'moveAll', [src, k.pendingKey(qname), k.archivedKey(qname), k.allGroups(qname)], [
        action, state, k.queueKeyPrefix(qname), Math.floor(t.getTime() / 1000), archiveCutoff(t), MAX_ARCHIVE_SIZE,
        k.uniqueKeyPrefix(qname), size, skip, opts.group ?? '',
      ]),
      'moveAll',
    );
    size = nextBatchSize(size, performance.now() - started, max);
    const moved = asNumber(reply[0]) ?? 0;
    out.succeeded += moved;
    out.trimmed += asNumber(reply[1]) ?? 0;
    const remaining = asNumber(reply[2]) ?? 0;
    for (let i = 3; i < reply.length; i += 2) {
      const id = asText(reply[i]) ?? '';
      out.failed.push({ id, error: moveError(op, action, asNumber(reply[i + 1]) ?? 0, qname, id, state) });
      skip++;
    }
    opts.onProgress?.({ done: Math.min(out.succeeded + out.failed.length, total), total });
    if (moved === 0 && reply.length === 3) break;
    if (remaining <= skip) break;
  }
  return out;
}

