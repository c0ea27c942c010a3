/**
 * Heartbeat records of servers and schedulers as asynq writes them, for tests of the servers
 * and schedulers pages. Each record is written with single-key commands (or one-slot scripts),
 * so the helpers work on a Redis Cluster too, where every record lives in its own slot.
 */
import { encodeSchedulerEnqueueEvent, encodeSchedulerEntry } from '../codec';
import * as k from '../keys';
import type { RedisClient } from '../redis-client';
import type { SchedulerEntry, ServerInfo, WorkerInfo } from '../types';
import { writeServerState } from '../worker/rdb/server-state';

/** A live server (registered until now + ttl) with its in-flight tasks. */
export async function seedServer(redis: RedisClient, info: ServerInfo, workers: readonly WorkerInfo[] = [], ttlSeconds = 60): Promise<void> {
  await writeServerState(redis, info, workers, ttlSeconds, new Date());
}

/** A live scheduler `schedulerId` with `entries` (registered until now + ttl). */
export async function seedScheduler(redis: RedisClient, schedulerId: string, entries: readonly SchedulerEntry[], ttlSeconds = 60): Promise<void> {
  const key = k.schedulerEntriesKey(schedulerId);
  await redis.zadd(k.ALL_SCHEDULERS, Math.floor(Date.now() / 1000) + ttlSeconds, key);
  for (const e of entries) await redis.lpush(key, Buffer.from(encodeSchedulerEntry(e)));
  await redis.expire(key, ttlSeconds);
}

/** One enqueue recorded in an entry's history. */
export async function seedSchedulerEvent(redis: RedisClient, entryId: string, taskId: string, at: Date): Promise<void> {
  await redis.zadd(k.schedulerHistoryKey(entryId), Math.floor(at.getTime() / 1000), Buffer.from(encodeSchedulerEnqueueEvent(taskId, at)));
}
