/**
 * Pause, resume and delete a queue, as asynq's inspector does them.
 */
import type { RedisClient } from '../redis-client';
import { AsynqError, failedPrecondition, goQuote } from '../errors';
import * as k from '../keys';
import { asNumber } from '../reply';
import { runScript } from '../scripts';
import { bulkAll } from './bulk';
import { assertQueueExists } from '../inspector/queues';

/**
 * Pauses a queue: servers stop dequeuing from it; scheduling, retries and aggregation go on.
 * Two round trips. Throws failed_precondition `queue "<q>" is already paused`, and, unlike
 * asynq (which writes a paused flag for any name), queue_not_found for a queue that does not
 * exist — a typo must not silently pause nothing.
 */
export async function pauseQueue(redis: RedisClient, qname: string, now: Date): Promise<void> {
  await assertQueueExists(redis, 'pauseQueue', qname);
  const ok = await redis.set(k.pausedKey(qname), Math.floor(now.getTime() / 1000), 'NX');
  if (ok === null) throw failedPrecondition('pauseQueue', `queue ${goQuote(qname)} is already paused`);
}

/** Resumes a paused queue. Two round trips. Throws `queue "<q>" is not paused`. */
export async function resumeQueue(redis: RedisClient, qname: string): Promise<void> {
  await assertQueueExists(redis, 'resumeQueue', qname);
  if ((await redis.del(k.pausedKey(qname))) === 0) throw failedPrecondition('resumeQueue', `queue ${goQuote(qname)} is not paused`);
}

/**
 * Removes a queue from asynq:queues and deletes its task structures. Without `force` it must
 * have no pending, active, scheduled, retry or archived task (asynq: `queue "<q>" is not
 * empty`); with `force` it must have no active task, and its tasks are deleted first in small
 * batches rather than in one script over the whole queue — releasing the unique locks they
 * still own, which asynq leaks. Like asynq it keeps completed tasks, groups, counters and the
 * paused flag.
 */
export async function deleteQueue(redis: RedisClient, qname: string, force: boolean): Promise<void> {
  const op = 'deleteQueue';
  await assertQueueExists(redis, op, qname);
  const keys = [k.pendingKey(qname), k.activeKey(qname), k.scheduledKey(qname), k.retryKey(qname), k.archivedKey(qname), k.leaseKey(qname)];
  for (let attempt = 0; attempt < 5; attempt++) {
    if (force) {
      if ((await redis.llen(k.activeKey(qname))) > 0) throw failedPrecondition(op, 'cannot remove queue with active tasks');
      for (const state of ['pending', 'scheduled', 'retry', 'archived']) await bulkAll(redis, qname, 'delete', state);
    }
    const code = asNumber(await runScript(redis, 'removeQueue', keys, []));
    if (code === 1) {
      await redis.srem(k.ALL_QUEUES, qname);
      return;
    }
    if (!force || code === -2) {
      if (code === -2 && force) throw failedPrecondition(op, 'cannot remove queue with active tasks');
      throw failedPrecondition(op, `queue ${goQuote(qname)} is not empty`);
    }
  }
  throw new AsynqError('INTERNAL', 'internal', `queue ${goQuote(qname)} kept receiving tasks while being deleted`, op);
}

