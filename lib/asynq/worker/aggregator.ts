/**
 * asynq's aggregator: every min(7 s, grace period), each group of the server's queues is
 * checked; a ready group's tasks move into an aggregation set, the user's aggregator turns
 * them into one new task, which is enqueued into the same queue, and then the set and its
 * tasks are deleted. A server that dies in between leaves the set behind; the recoverer
 * returns its tasks to the group after the set's 2-minute deadline.
 */
import type { RedisClient } from '../redis-client';
import { enqueueTask } from '../client/enqueue';
import type { ResolvedConfig, GroupAggregator } from './config';
import { errorText } from './errors';
import { every, type Loop } from './loop';
import { aggregationCheck, deleteAggregationSet, listGroups, readAggregationSet, type GroupLimits } from './rdb/aggregation';
import { newTask } from './task';

/** asynq runs at most 3 checks at once and skips a tick when they are all busy. */
const MAX_CONCURRENT_CHECKS = 3;
const DEFAULT_CHECK_INTERVAL_MS = 7000;

/**
 * One pass over every group of every queue. Per group: SMEMBERS once per queue, one check
 * script, and for a ready group a read, the enqueue and a delete (four round trips).
 */
export async function aggregateOnce(redis: RedisClient, config: ResolvedConfig, aggregator: GroupAggregator, at: Date): Promise<void> {
  const limits: GroupLimits = {
    maxSize: config.groupMaxSize,
    maxDelaySeconds: Math.trunc(config.groupMaxDelayMs / 1000),
    gracePeriodSeconds: Math.trunc(config.groupGracePeriodMs / 1000),
  };
  for (const q of Object.keys(config.queues)) {
    for (const group of await listGroups(redis, q)) {
      try {
        const setKey = await aggregationCheck(redis, q, group, limits, at);
        if (setKey === null) continue;
        const { msgs } = await readAggregationSet(redis, q, setKey);
        const tasks = msgs.map((m) => newTask(m.type, m.payload, m.headers));
        const { options, ...task } = await aggregator(group, tasks);
        await enqueueTask(redis, task, { ...options, queue: q }, config.clock.now());
        await deleteAggregationSet(redis, q, setKey);
      } catch (err) {
        // The set (if made) stays registered and is reclaimed after its deadline.
        config.logger.error(`aggregation of group ${JSON.stringify(group)} in queue ${JSON.stringify(q)} failed: ${errorText(err)}`);
      }
    }
  }
}

/** Starts the aggregation loop; null when no aggregator is configured (asynq: no-op). */
export function startAggregator(redis: RedisClient, config: ResolvedConfig): Loop | null {
  const aggregator = config.groupAggregator;
  if (!aggregator) return null;
  const interval = Math.min(DEFAULT_CHECK_INTERVAL_MS, config.groupGracePeriodMs);
  const inFlight = new Set<Promise<void>>();
  const loop = every(
    interval,
    () => {
      if (inFlight.size >= MAX_CONCURRENT_CHECKS) {
        config.logger.warn('max number of aggregation checks in flight, skipping');
        return Promise.resolve();
      }
      const p = aggregateOnce(redis, config, aggregator, config.clock.now())
        .catch((err: unknown) => config.logger.error(`aggregator: ${errorText(err)}`))
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
      return Promise.resolve();
    },
    (err) => config.logger.error(`aggregator: ${String(err)}`),
    false,
  );
  return {
    async stop() {
      await loop.stop();
      await Promise.all([...inFlight]);
    },
  };
}
