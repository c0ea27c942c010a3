/**
 * What a recoverer reads and repairs after a server died: tasks whose lease ran out, and
 * aggregation sets that were never finished.
 */
import type { RedisClient } from '../../redis-client';
import { CodecError, decodeTaskMessage } from '../../codec';
import * as k from '../../keys';
import { asArray, asBytes, asNumber } from '../../reply';
import { runScript } from '../../scripts';
import type { TaskMessage } from '../../types';
import { unixSeconds } from './codes';

/**
 * Messages of the queue's active tasks whose lease expired at or before `cutoff`. One round
 * trip, O(log N + M). Undecodable messages are returned apart (asynq fails the whole call on
 * one, which stops recovery of the queue for good).
 */
export async function listLeaseExpired(redis: RedisClient, qname: string, cutoff: Date): Promise<{ msgs: TaskMessage[]; corrupt: number }> {
  const reply = asArray(
    await runScript(redis, 'workerListLeaseExpired', [k.leaseKey(qname)], [unixSeconds(cutoff), k.taskKeyPrefix(qname)]),
    'workerListLeaseExpired',
  );
  const msgs: TaskMessage[] = [];
  let corrupt = 0;
  for (const r of reply) {
    const b = asBytes(r);
    if (b === null) continue;
    try {
      msgs.push(decodeTaskMessage(b));
    } catch (err) {
      if (!(err instanceof CodecError)) throw err;
      corrupt++;
    }
  }
  return { msgs, corrupt };
}

/**
 * Returns the tasks of aggregation sets past their deadline to their groups. One round trip,
 * O(S × M). Returns the number of sets reclaimed.
 */
export async function reclaimStaleAggregationSets(redis: RedisClient, qname: string, now: Date): Promise<number> {
  const n = await runScript(
    redis,
    'workerReclaimAggregationSets',
    [k.allAggregationSets(qname), k.allGroups(qname)],
    [unixSeconds(now), k.groupKeyPrefix(qname)],
  );
  return asNumber(n) ?? 0;
}
