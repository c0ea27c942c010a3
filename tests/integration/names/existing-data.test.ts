/**
 * Data another client already wrote under a name the console refuses to write (here
 * `default}:t:X`, exactly what an older console or a Go client could enqueue) is still listed,
 * opened and deleted through the routes, and deleting it touches no key of queue `default`.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keys as k } from '@/lib/asynq';
import { encodeTaskMessage } from '@/lib/asynq/codec';
import { json, newTaskMessage } from '@/lib/asynq/testutil/factories';
import { callRoute, type Handler } from '../../support/call-route';
import { snapshot } from '../../support/redis-snapshot';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import { consoleRoutes } from '../../support/console-routes';

const DB = 110;
const ODD = 'default}:t:X';
let redis: Redis;
const r = {} as { metrics: { GET: Handler }; redisInfo: { GET: Handler }; queues: { GET: Handler }; queue: { GET: Handler; DELETE: Handler }; tasks: { GET: Handler }; task: { GET: Handler; DELETE: Handler } };

beforeAll(async () => {
  process.env.REDIS_URL = testRedisUrl(DB);
  redis = await openTestRedis(DB);
  r.queues = (await consoleRoutes()).queues;
  r.metrics = (await consoleRoutes()).metrics;
  r.redisInfo = (await consoleRoutes()).redis;
  r.queue = (await consoleRoutes()).queue;
  r.tasks = (await consoleRoutes()).tasks;
  r.task = (await consoleRoutes()).task;
});
afterAll(() => redis.quit());
beforeEach(() => redis.flushdb());

/** Writes a pending task with plain Redis commands, as asynq's enqueue script leaves it. */
async function seedPendingRaw(queue: string, id: string, type: string) {
  const msg = Buffer.from(encodeTaskMessage(newTaskMessage({ id, type, queue, payload: json({ id }) })));
  await redis.sadd('asynq:queues', queue);
  await redis.hset(`asynq:{${queue}}:t:${id}`, 'msg', msg, 'state', 'pending', 'pending_since', String(BigInt(Date.now()) * 1_000_000n));
  await redis.lpush(`asynq:{${queue}}:pending`, id);
}

/** Every key and value of queue `default` (its own prefix, minus the odd queue's keys inside it). */
async function defaultsKeys(): Promise<Record<string, unknown>> {
  const all = await snapshot(redis);
  return Object.fromEntries(Object.entries(all).filter(([key]) => key.startsWith('asynq:{default}:') && !key.startsWith(k.queueKeyPrefix(ODD))));
}

describe(`a queue named ${JSON.stringify(ODD)} already in Redis`, () => {
  it('is listed, opened, its tasks read, and deleted without touching queue default', async () => {
    await seedPendingRaw('default', 'd1', 'email');
    await seedPendingRaw('default', 'd2', 'email');
    await seedPendingRaw(ODD, 'o1', 'odd');
    await seedPendingRaw(ODD, 'o2', 'odd');
    // Its keys sit inside default's key space: asynq:{default}:t:X}:pending, asynq:{default}:t:X}:t:o1, …
    expect(await redis.exists('asynq:{default}:t:X}:pending', 'asynq:{default}:t:X}:t:o1')).toBe(2);
    const defaultBefore = await defaultsKeys();
    expect(Object.keys(defaultBefore).sort()).toEqual(['asynq:{default}:pending', 'asynq:{default}:t:d1', 'asynq:{default}:t:d2']);

    const list = await callRoute(r.queues.GET, '/api/queues');
    expect(list.status).toBe(200);
    const names = JSON.stringify(list.body);
    expect(names).toContain(JSON.stringify(ODD));

    const metrics = await callRoute(r.metrics.GET, '/api/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.bytes.toString()).toContain('queue="default}:t:X"');
    expect((await callRoute(r.redisInfo.GET, '/api/redis')).status).toBe(200);

    const one = await callRoute(r.queue.GET, '/api/x', { qname: ODD });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ queue: ODD, pending: 2 });
    const def = await callRoute(r.queue.GET, '/api/x', { qname: 'default' });
    expect(def.status).toBe(200);
    expect(def.body).toMatchObject({ queue: 'default', pending: 2 });

    const tasks = await callRoute(r.tasks.GET, '/api/x?state=pending', { qname: ODD });
    expect(tasks.status).toBe(200);
    expect(tasks.body.tasks.map((t: { id: string }) => t.id).sort()).toEqual(['o1', 'o2']);
    const task = await callRoute(r.task.GET, '/api/x', { qname: ODD, taskId: 'o1' });
    expect(task.status).toBe(200);
    expect(task.body).toMatchObject({ id: 'o1', queue: ODD, type: 'odd' });

    const delOne = await callRoute(r.task.DELETE, '/api/x', { qname: ODD, taskId: 'o1' }, { method: 'DELETE' });
    expect(delOne.status).toBe(204);
    const delQueue = await callRoute(r.queue.DELETE, '/api/x?force=true', { qname: ODD }, { method: 'DELETE' });
    expect(delQueue.status, JSON.stringify(delQueue.body)).toBeLessThan(300);

    expect(await redis.smembers('asynq:queues')).toEqual(['default']);
    expect(await redis.keys(`${k.queueKeyPrefix(ODD)}*`)).toEqual([]);
    expect(await defaultsKeys()).toEqual(defaultBefore);
    const after = await callRoute(r.queue.GET, '/api/x', { qname: 'default' });
    expect(after.body).toMatchObject({ queue: 'default', pending: 2 });
  });
});
