/**
 * A pipeline that meets NOSCRIPT (a restarted or fresh Redis) sends again only the commands
 * that answered NOSCRIPT: the rest ran, and must not run twice. A batch mixing a cached script
 * (enqueue) with an uncached one (schedule) is the case that would otherwise report its own
 * pending tasks as ID conflicts.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { batchEnqueue, enqueueTask } from '@/lib/asynq';
import * as k from '@/lib/asynq/keys';
import { openTestRedis } from '../../support/test-redis';

const DB = 93;
let redis: Redis;

beforeAll(async () => {
  redis = await openTestRedis(DB);
});
afterAll(async () => {
  await redis.quit();
});

it('re-sends only the NOSCRIPT commands of a pipeline', async () => {
  const now = new Date();
  await redis.script('FLUSH');
  // Caches the plain enqueue script only.
  await enqueueTask(redis, { type: 'warm', payload: null }, { queue: 'q' }, now);
  const items = [
    { task: { type: 'a', payload: null }, options: { queue: 'q', taskId: 'pending-1' } },
    { task: { type: 'b', payload: null }, options: { queue: 'q', taskId: 'later-1', processAt: new Date(now.getTime() + 3_600_000) } },
    { task: { type: 'c', payload: null }, options: { queue: 'q', taskId: 'pending-2' } },
  ];
  const results = await batchEnqueue(redis, items, now);
  expect(results).toEqual([
    { ok: true, id: 'pending-1', queue: 'q', state: 'pending' },
    { ok: true, id: 'later-1', queue: 'q', state: 'scheduled' },
    { ok: true, id: 'pending-2', queue: 'q', state: 'pending' },
  ]);
  expect((await redis.lrange(k.pendingKey('q'), 0, -1)).sort()).toEqual(['pending-1', 'pending-2', expect.any(String)].sort());
  expect(await redis.llen(k.pendingKey('q'))).toBe(3);
  expect(await redis.zrange(k.scheduledKey('q'), 0, -1)).toEqual(['later-1']);
});
