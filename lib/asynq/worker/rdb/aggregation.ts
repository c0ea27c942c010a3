/**
 * The Redis side of group aggregation (asynq's aggregator): check a group, read the set it
 * produced, delete the set once the aggregated task is enqueued.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../../redis-client';
import { decodeTaskMessage } from '../../codec';
import * as k from '../../keys';
import { asArray, asBytes, asNumber } from '../../reply';
import { runScript } from '../../scripts';
import type { TaskMessage } from '../../types';
import { unixSeconds } from './codes';

/** asynq's aggregationTimeout: a set not deleted within 2 min is reclaimed. */
const AGGREGATION_TIMEOUT_SECONDS = 120;

/** When a group is ready: asynq's GroupMaxSize, GroupMaxDelay and GroupGracePeriod. */
export interface GroupLimits {
  /** 0 = no size trigger. */
  maxSize: number;
  /** Whole seconds; 0 = no delay trigger. */
  maxDelaySeconds: number;
  /** Whole seconds, at least 1. */
  gracePeriodSeconds: number;
}

/** Names of the queue's groups (SMEMBERS). One round trip. */
export function listGroups(redis: RedisClient, qname: string): Promise<string[]> {
  return redis.smembers(k.allGroups(qname));
}

/**
 * Moves the group's tasks into a new aggregation set when one of the limits is reached.
 * One round trip, O(log N + M). Returns the set's key, or null when the group is not ready.
 */
export async function aggregationCheck(redis: RedisClient, qname: string, group: string, limits: GroupLimits, now: Date): Promise<string | null> {
  const setKey = `${k.groupKey(qname, group)}:${randomUUID()}`;
  const n = asNumber(
    await runScript(
      redis,
      'workerAggregationCheck',
      [k.groupKey(qname, group), setKey, k.allAggregationSets(qname), k.allGroups(qname)],
      [limits.maxSize, limits.maxDelaySeconds, limits.gracePeriodSeconds, unixSeconds(now) + AGGREGATION_TIMEOUT_SECONDS, unixSeconds(now), group],
    ),
  );
  return n === 1 ? setKey : null;
}

/**
 * The set's messages (oldest first) and its deadline. One round trip, O(M).
 * Throws CodecError on a corrupt message, as asynq fails the read.
 */
export async function readAggregationSet(redis: RedisClient, qname: string, setKey: string): Promise<{ msgs: TaskMessage[]; deadline: Date | null }> {
  const [deadline, ...rest] = asArray(
    await runScript(redis, 'workerReadAggregationSet', [setKey, k.allAggregationSets(qname)], [k.taskKeyPrefix(qname)]),
    'workerReadAggregationSet',
  );
  const seconds = asNumber(deadline);
  const msgs = rest.map((r) => asBytes(r)).filter((b): b is Buffer => b !== null).map((b) => decodeTaskMessage(b));
  return { msgs, deadline: seconds === null ? null : new Date(seconds * 1000) };
}

/** Deletes the set, its registration and its tasks' hashes. One round trip, O(M). */
export async function deleteAggregationSet(redis: RedisClient, qname: string, setKey: string): Promise<void> {
  await runScript(redis, 'workerDeleteAggregationSet', [setKey, k.allAggregationSets(qname)], [k.taskKeyPrefix(qname)]);
}

