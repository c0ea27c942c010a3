/**
 * Writes tasks into Redis exactly as asynq's own scripts leave them (the task hash, the
 * state's list or zset, the lease, the lock, the group registry), so the inspector can be
 * tested against every state without running workers. Mirrors asynq's internal/testutil.
 */
import type { RedisClient } from '../redis-client';
import * as k from '../keys';
import type { TaskMessage } from '../types';
import { encodeTaskMessage } from '../codec';

const nowSec = () => Math.floor(Date.now() / 1000);

async function writeHash(redis: RedisClient, m: TaskMessage, state: string, extra: (string | Buffer)[] = []) {
  await redis.sadd(k.ALL_QUEUES, m.queue);
  await redis.hset(k.taskKey(m.queue, m.id), 'msg', Buffer.from(encodeTaskMessage(m)), 'state', state, ...extra);
}

/** LPUSHes onto pending, as Enqueue does; `pendingSince` in Unix ns (default now). */
export async function seedPending(redis: RedisClient, m: TaskMessage, pendingSince = BigInt(Date.now()) * 1_000_000n) {
  const extra = ['pending_since', pendingSince.toString(), ...(m.uniqueKey ? ['unique_key', m.uniqueKey] : [])];
  await writeHash(redis, m, 'pending', extra);
  await redis.lpush(k.pendingKey(m.queue), m.id);
}

/** Active with a lease expiring at `leaseAt` (Unix s; default now + 30 s). */
export async function seedActive(redis: RedisClient, m: TaskMessage, leaseAt = nowSec() + 30) {
  await writeHash(redis, m, 'active');
  await redis.lpush(k.activeKey(m.queue), m.id);
  await redis.zadd(k.leaseKey(m.queue), leaseAt, m.id);
}

/** Into the scheduled, retry, archived or completed zset with `score` (Unix s). */
export async function seedZset(
  redis: RedisClient,
  state: 'scheduled' | 'retry' | 'archived' | 'completed',
  m: TaskMessage,
  score: number,
) {
  await writeHash(redis, m, state, m.uniqueKey ? ['unique_key', m.uniqueKey] : []);
  await redis.zadd(`${k.queueKeyPrefix(m.queue)}${state}`, score, m.id);
}

/** Into group `m.groupKey`, as AddToGroup does. */
export async function seedAggregating(redis: RedisClient, m: TaskMessage, addedAt = nowSec()) {
  await writeHash(redis, m, 'aggregating', ['group', m.groupKey]);
  await redis.zadd(k.groupKey(m.queue, m.groupKey), addedAt, m.id);
  await redis.sadd(k.allGroups(m.queue), m.groupKey);
}

/** A unique lock held by `holderId` for `ttl` seconds (omit for no expiry). */
export async function seedLock(redis: RedisClient, key: string, holderId: string, ttl?: number) {
  if (ttl === undefined) await redis.set(key, holderId);
  else await redis.set(key, holderId, 'EX', ttl);
}
