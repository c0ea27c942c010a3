/**
 * The queues a scan reads: the ones asked for, or every queue this connection can read.
 */
import type { RedisClient } from '../redis-client';
import { queueNotFound } from '../errors';
import { listQueueNames } from '../inspector/queues';
import * as k from '../keys';
import { execPipeline } from '../scripts';
import { assertQueueSlot, readableQueues } from '../topology';
import { byName } from '../compare';

/**
 * `given` sorted by name, each checked for its cluster slot and, with `mustExist`, for being in
 * asynq:queues (else queue_not_found naming `op`; one round trip of SISMEMBERs). With none
 * given, every queue of asynq:queues that the connection can read (one SMEMBERS).
 */
export async function scanQueues(redis: RedisClient, op: string, given: readonly string[] | undefined, mustExist = true): Promise<string[]> {
  if (!given || given.length === 0) return readableQueues(redis, await listQueueNames(redis));
  const queues = [...new Set(given)].sort(byName);
  for (const q of queues) assertQueueSlot(redis, op, q);
  if (mustExist) {
    const replies = await execPipeline(redis, (p) => {
      for (const q of queues) p.sismember(k.ALL_QUEUES, q);
    });
    for (const [i, q] of queues.entries()) {
      const [err, member] = replies[i] ?? [null, 0];
      if (err) throw err;
      if (member !== 1) throw queueNotFound(op, q);
    }
  }
  return queues;
}
