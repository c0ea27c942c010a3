/**
 * The worker-side archive keeps asynq's limits and, unlike the inspector's archive actions,
 * deletes the hashes of the tasks it trims (asynq v0.25+).
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueTask } from '@/lib/asynq/client/enqueue';
import * as k from '@/lib/asynq/keys';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedZset } from '@/lib/asynq/testutil/seed';
import { ServeMux } from '@/lib/asynq/worker';
import { openTestRedis } from '../../support/test-redis';
import { nowSec, startTestServer, stateOf, waitFor } from './helpers';

const DB = 36;
let redis: Redis;

beforeAll(async () => {
  redis = await openTestRedis(DB);
});
afterAll(async () => {
  await redis.quit();
});

describe('archive trimming', () => {
  it('drops archived tasks older than 90 days, hashes included, and keeps the rest', async () => {
    const now = nowSec();
    const old = [newTaskMessage({ type: 'old' }), newTaskMessage({ type: 'old' })];
    for (const m of old) await seedZset(redis, 'archived', m, now - 91 * 86_400);
    const recent = newTaskMessage({ type: 'recent' });
    await seedZset(redis, 'archived', recent, now - 89 * 86_400);

    const info = await enqueueTask(redis, { type: 'boom', payload: null }, { maxRetry: 0 }, new Date());
    const mux = new ServeMux().handleFunc('boom', () => {
      throw new Error('boom');
    });
    const { server } = await startTestServer(redis, mux);
    try {
      await waitFor('archived', async () => (await stateOf(redis, 'default', info.id)) === 'archived');
    } finally {
      await server.shutdown();
    }
    expect((await redis.zrange(k.archivedKey('default'), 0, -1)).sort()).toEqual([info.id, recent.id].sort());
    for (const m of old) expect(await redis.exists(k.taskKey('default', m.id))).toBe(0);
    expect(await redis.exists(k.taskKey('default', recent.id))).toBe(1);
  });

  it('keeps at most 9 999 archived tasks, deleting the oldest with their hashes', async () => {
    await redis.flushdb();
    const now = nowSec();
    const p = redis.pipeline();
    for (let i = 0; i < 10_000; i++) {
      p.zadd(k.archivedKey('q'), now - 10_000 + i, `a${i}`);
      p.hset(k.taskKey('q', `a${i}`), 'state', 'archived');
    }
    await p.exec();
    const info = await enqueueTask(redis, { type: 'boom', payload: null }, { queue: 'q', maxRetry: 0 }, new Date());
    const mux = new ServeMux().handleFunc('boom', () => {
      throw new Error('boom');
    });
    const { server } = await startTestServer(redis, mux, { queues: { q: 1 } });
    try {
      await waitFor('archived', async () => (await stateOf(redis, 'q', info.id)) === 'archived');
    } finally {
      await server.shutdown();
    }
    expect(await redis.zcard(k.archivedKey('q'))).toBe(9_999);
    expect(await redis.zscore(k.archivedKey('q'), info.id)).not.toBeNull();
    expect(await redis.exists(k.taskKey('q', 'a0'), k.taskKey('q', 'a1'))).toBe(0);
    expect(await redis.exists(k.taskKey('q', 'a2'))).toBe(1);
  });
});
