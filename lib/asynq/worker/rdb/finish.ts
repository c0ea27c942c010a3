/**
 * The five ways a worker hands a task back: done, completed, requeued, retry, archived. Each
 * is one script call (one round trip) whose cost is dominated by LREM on the active list,
 * O(N) in the number of tasks in flight across all servers of the queue.
 */
import type { RedisClient } from '../../redis-client';
import { encodeTaskMessage } from '../../codec';
import * as k from '../../keys';
import { archiveCutoff, MAX_ARCHIVE_SIZE } from '../../mutations/archive-limits';
import { trimArchive } from '../../mutations/archive-trim';
import { asNumber } from '../../reply';
import { runScript } from '../../scripts';
import type { TaskMessage } from '../../types';
import { checkFinish, MAX_INT64, statsExpiry, unixSeconds } from './codes';

const bytes = (m: TaskMessage) => Buffer.from(encodeTaskMessage(m));
const reply = async (p: Promise<unknown>) => asNumber(await p);

/**
 * Deletes a succeeded task, counts it as processed and releases its unique lock if the lock
 * still holds this task's ID. Throws task_not_found when the task is no longer active here.
 */
export async function markDone(redis: RedisClient, msg: TaskMessage, now: Date): Promise<void> {
  const q = msg.queue;
  const keys = [k.activeKey(q), k.leaseKey(q), k.taskKey(q, msg.id), k.processedKey(q, now), k.processedTotalKey(q)];
  const args = [msg.id, statsExpiry(now), MAX_INT64];
  const r = msg.uniqueKey
    ? runScript(redis, 'workerDoneUnique', [...keys, msg.uniqueKey], args)
    : runScript(redis, 'workerDone', keys, args);
  checkFinish('done', q, msg.id, await reply(r));
}

/**
 * Keeps a succeeded task as completed until now + retention (msg rewritten with
 * completed_at), counts it and releases its unique lock if still owned.
 */
export async function markComplete(redis: RedisClient, msg: TaskMessage, now: Date): Promise<void> {
  const q = msg.queue;
  const nowSec = unixSeconds(now);
  const keys = [k.activeKey(q), k.leaseKey(q), k.completedKey(q), k.taskKey(q, msg.id), k.processedKey(q, now), k.processedTotalKey(q)];
  const args = [msg.id, statsExpiry(now), nowSec + msg.retention, bytes({ ...msg, completedAt: nowSec }), MAX_INT64];
  const r = msg.uniqueKey
    ? runScript(redis, 'workerCompleteUnique', [...keys, msg.uniqueKey], args)
    : runScript(redis, 'workerComplete', keys, args);
  checkFinish('markAsComplete', q, msg.id, await reply(r));
}

/** Puts an unfinished task back at the tail of pending (next to run), state pending. */
export async function requeue(redis: RedisClient, msg: TaskMessage): Promise<void> {
  const q = msg.queue;
  const keys = [k.activeKey(q), k.leaseKey(q), k.pendingKey(q), k.taskKey(q, msg.id)];
  checkFinish('requeue', q, msg.id, await reply(runScript(redis, 'workerRequeue', keys, [msg.id])));
}

/**
 * Moves a failed task to the retry set at `retryAt`. A failure (`isFailure`) adds one to
 * `retried` and to the processed and failed counters; error_msg and last_failed_at are set
 * either way.
 */
export async function retry(redis: RedisClient, msg: TaskMessage, retryAt: Date, errMsg: string, isFailure: boolean, now: Date): Promise<void> {
  const q = msg.queue;
  const modified = { ...msg, retried: msg.retried + (isFailure ? 1 : 0), errorMsg: errMsg, lastFailedAt: unixSeconds(now) };
  const keys = [
    k.taskKey(q, msg.id), k.activeKey(q), k.leaseKey(q), k.retryKey(q),
    k.processedKey(q, now), k.failedKey(q, now), k.processedTotalKey(q), k.failedTotalKey(q),
  ];
  const args = [msg.id, bytes(modified), unixSeconds(retryAt), statsExpiry(now), isFailure ? '1' : '0', MAX_INT64];
  checkFinish('retry', q, msg.id, await reply(runScript(redis, 'workerRetry', keys, args)));
}

/**
 * Archives a task that failed for good, with `errMsg` as its last error (retried unchanged),
 * counting it as processed and failed and trimming the archive to asynq's limits (the rest
 * of the trim, when one call may not take it all, in calls of its own: archive-trim.ts).
 */
export async function archive(redis: RedisClient, msg: TaskMessage, errMsg: string, now: Date): Promise<void> {
  const q = msg.queue;
  const nowSec = unixSeconds(now);
  const keys = [
    k.taskKey(q, msg.id), k.activeKey(q), k.leaseKey(q), k.archivedKey(q),
    k.processedKey(q, now), k.failedKey(q, now), k.processedTotalKey(q), k.failedTotalKey(q),
  ];
  const args = [
    msg.id, bytes({ ...msg, errorMsg: errMsg, lastFailedAt: nowSec }), nowSec, archiveCutoff(now),
    MAX_ARCHIVE_SIZE, statsExpiry(now), MAX_INT64, k.taskKeyPrefix(q),
  ];
  // { 1, members still due to be trimmed } on success, a negative code otherwise.
  const r = await runScript(redis, 'workerArchive', keys, args);
  const [code, due] = Array.isArray(r) ? r.map((v) => asNumber(v)) : [asNumber(r), 0];
  checkFinish('archive', q, msg.id, code);
  if ((due ?? 0) > 0) await trimArchive(redis, q, now);
}

/** Stores a handler's result in the task hash (`HSET result`); one round trip. */
export async function writeResult(redis: RedisClient, qname: string, id: string, data: Uint8Array): Promise<number> {
  await redis.hset(k.taskKey(qname, id), 'result', Buffer.from(data));
  return data.length;
}
