/**
 * Housekeeping of time-based sets: due scheduled/retry tasks forwarded (asynq's forwarder),
 * expired completed tasks deleted (asynq's janitor).
 */
import type { RedisClient } from '../../redis-client';
import * as k from '../../keys';
import { asNumber } from '../../reply';
import { runScript } from '../../scripts';
import { unixNanos, unixSeconds } from './codes';

/**
 * Forwards every due task of the queue, scheduled first then retry, 100 per script call,
 * repeating while a call moved something. One round trip per call; returns the number moved.
 */
export async function forwardIfReady(redis: RedisClient, qname: string, now: Date): Promise<number> {
  let total = 0;
  for (const source of [k.scheduledKey(qname), k.retryKey(qname)]) {
    for (;;) {
      const n = asNumber(
        await runScript(
          redis,
          'workerForward',
          [source, k.pendingKey(qname), k.allGroups(qname)],
          [unixSeconds(now), k.taskKeyPrefix(qname), unixNanos(now), k.groupKeyPrefix(qname)],
        ),
      ) ?? 0;
      total += n;
      if (n === 0) break;
    }
  }
  return total;
}

/**
 * Deletes completed tasks whose retention ended, `batchSize` per script call until none is
 * left. One round trip per call; returns the number deleted.
 */
export async function deleteExpiredCompleted(redis: RedisClient, qname: string, batchSize: number, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const n = asNumber(
      await runScript(redis, 'workerDeleteExpiredCompleted', [k.completedKey(qname)], [unixSeconds(now), k.taskKeyPrefix(qname), batchSize]),
    ) ?? 0;
    total += n;
    if (n === 0) return total;
  }
}
