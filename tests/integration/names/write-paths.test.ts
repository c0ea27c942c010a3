/**
 * Every write path refuses a queue name that breaks asynq's key layout, with a 400 naming the
 * field and the rule, and writes nothing: enqueue (which the UI's clone also posts to), batch
 * enqueue per item, the handler-not-found re-run, and the core's enqueue and batch themselves.
 * Ordinary names, including ones with `:`, glob characters and non-ASCII, are still written.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { batchEnqueue, enqueueTask, keys as k, rerunNotFound } from '@/lib/asynq';
import { QUEUE_NAME_RULE } from '@/lib/asynq/queue-name';
import { callRoute, type Handler } from '../../support/call-route';
import { snapshot } from '../../support/redis-snapshot';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import { consoleRoutes } from '../../support/console-routes';

const DB = 112;
let redis: Redis;
let enqueueRoute: Handler;
let batchRoute: Handler;
let rerunRoute: Handler;

beforeAll(async () => {
  process.env.REDIS_URL = testRedisUrl(DB);
  redis = await openTestRedis(DB);
  enqueueRoute = (await consoleRoutes()).tasks.POST;
  batchRoute = (await consoleRoutes()).batch.POST;
  rerunRoute = (await consoleRoutes()).rerun.POST;
});
afterAll(() => redis.quit());
beforeEach(async () => {
  await redis.flushdb();
  // A live queue beside the attempts: its keys are what a bad name would have collided with.
  await callRoute(enqueueRoute, '/api/queues/default/tasks', { qname: 'default' }, post({ type: 'email', payload: '{}' }));
});

function post(body: unknown): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

const BAD = ['default}:t:X', 'nest}:unique:zz', '{default}', 'a{b', 'line\nbreak', 'nul\u0000', 'half\ud800', 'x'.repeat(257)];
const GOOD = ['emails:eu-west', 'a*', 'q?[x]', 'キュー', 'x'.repeat(256)];

describe('POST /api/queues/{q}/tasks (enqueue, and the UI’s clone)', () => {
  it.each(BAD)('refuses %j with 400 naming qname and the rule, writing nothing', async (q) => {
    const before = await snapshot(redis);
    const res = await callRoute(enqueueRoute, '/api/x', { qname: q }, post({ type: 't', options: { uniqueTtlSeconds: 60 } }));
    expect(res.status).toBe(400);
    // route() refuses a path parameter that is not well-formed Unicode before any schema runs.
    const message = q.includes('\ud800') ? 'qname: not well-formed Unicode (a lone surrogate)' : `qname: ${QUEUE_NAME_RULE}`;
    expect(res.body.error).toMatchObject({ code: 'invalid_argument', field: 'qname', message });
    expect(await snapshot(redis)).toEqual(before);
  });

  it.each(GOOD)('still enqueues into %j', async (q) => {
    const res = await callRoute(enqueueRoute, '/api/x', { qname: q }, post({ type: 't' }));
    expect(res.status).toBe(201);
    expect(await redis.llen(k.pendingKey(q))).toBe(1);
    expect(await redis.sismember(k.ALL_QUEUES, q)).toBe(1);
  });
});

describe('POST /api/enqueue-batch', () => {
  it('refuses the request naming the item’s field, writing no item', async () => {
    const before = await snapshot(redis);
    const res = await callRoute(batchRoute, '/api/enqueue-batch', {}, post({ items: [{ type: 'ok', queue: 'default' }, { type: 'bad', queue: 'default}:t:X' }] }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_argument', field: 'items.1.queue', message: `items.1.queue: ${QUEUE_NAME_RULE}` });
    expect(await snapshot(redis)).toEqual(before);
  });

  it('refuses an item with a blank queue alone, with asynq’s text, and enqueues the others', async () => {
    const res = await callRoute(batchRoute, '/api/enqueue-batch', {}, post({ items: [{ type: 'a', queue: 'fine' }, { type: 'b', queue: ' ' }, { type: 'c', queue: '' }] }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const blank = { ok: false, error: { code: 'invalid_argument', field: 'queue', message: 'queue name must contain one or more characters' } };
    expect(res.body.results).toMatchObject([{ ok: true, queue: 'fine' }, blank, blank]);
    expect(await redis.llen(k.pendingKey('fine'))).toBe(1);
    expect(await redis.smembers(k.ALL_QUEUES)).not.toContain(' ');
  });

  it('still enqueues items into ordinary queues', async () => {
    const res = await callRoute(batchRoute, '/api/enqueue-batch', {}, post({ items: [{ type: 'a', queue: 'a:b' }, { type: 'b' }] }));
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { ok: boolean; queue: string }) => [r.ok, r.queue])).toEqual([[true, 'a:b'], [true, 'default']]);
  });
});

describe('POST /api/handler-not-found/rerun', () => {
  it('refuses a target queue that breaks the layout, naming queue and the rule', async () => {
    const before = await snapshot(redis);
    const res = await callRoute(rerunRoute, '/api/handler-not-found/rerun', {}, post({ queue: 'default}:t:X', taskType: 't' }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_argument', field: 'queue', message: `queue: ${QUEUE_NAME_RULE}` });
    expect(await snapshot(redis)).toEqual(before);
  });
});

describe('the core, below the contract', () => {
  it('enqueueTask refuses the name before any Redis call, as invalid_argument on queue', async () => {
    const before = await snapshot(redis);
    await expect(enqueueTask(redis, { type: 't', payload: null }, { queue: 'default}:t:X' }, new Date())).rejects.toMatchObject({
      kind: 'invalid_argument',
      details: { field: 'queue' },
      message: `queue: ${QUEUE_NAME_RULE}`,
    });
    expect(await snapshot(redis)).toEqual(before);
  });

  it('batchEnqueue refuses per item and writes the others', async () => {
    const results = await batchEnqueue(redis, [
      { task: { type: 'ok', payload: null }, options: { queue: 'fine' } },
      { task: { type: 'bad', payload: null }, options: { queue: 'fine}:t:X' } },
    ], new Date());
    expect(results[0]).toMatchObject({ ok: true, queue: 'fine' });
    expect(results[1]).toMatchObject({ ok: false, error: { kind: 'invalid_argument', details: { field: 'queue' } } });
    expect(await redis.smembers(k.ALL_QUEUES)).not.toContain('fine}:t:X');
    expect(await redis.keys('asynq:{fine}:t:X*')).toEqual([]);
  });

  it('rerunNotFound refuses such a target even when the queue exists', async () => {
    await redis.sadd(k.ALL_QUEUES, 'default}:t:X');
    await expect(rerunNotFound(redis, 'default}:t:X', 't', ['archived'])).rejects.toMatchObject({ kind: 'invalid_argument', details: { field: 'queue' } });
  });
});
