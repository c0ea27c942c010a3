/**
 * What a task server writes for each way an attempt ends, on a real Redis: done (lock
 * released only when still owned), completed with result and retention, revoked, retried
 * (retried + 1, asynq's delay, counters), archived after the last retry, not found, skip
 * retry, a thrown non-Error, the deadline and cancellation.
 */
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueueTask } from '@/lib/asynq/client/enqueue';
import * as k from '@/lib/asynq/keys';
import { RevokeTask, ServeMux, SkipRetry, type Server } from '@/lib/asynq/worker';
import { openTestRedis } from '../../support/test-redis';
import { nowSec, readTask, startTestServer, stateOf, waitFor } from './helpers';

const DB = 30;
let redis: Redis;
let server: Server | null = null;

beforeAll(async () => {
  redis = await openTestRedis(DB);
});
afterAll(async () => {
  await redis.quit();
});
beforeEach(async () => {
  await redis.flushdb();
});
afterEach(async () => {
  await server?.shutdown();
  server = null;
});

const payload = (v: unknown) => Buffer.from(JSON.stringify(v));
const today = () => new Date();

function mux(): ServeMux {
  return new ServeMux()
    .handleFunc('ok', () => {})
    .handleFunc('result', async (_c, t) => void (await t.resultWriter!.write(Buffer.concat([Buffer.from('done:'), t.payload]))))
    .handleFunc('fail', (_c, t) => {
      throw new Error(`fail: ${t.type}`);
    })
    .handleFunc('skip', () => {
      throw new Error('bad input: skip retry for the task', { cause: SkipRetry });
    })
    .handleFunc('revoke', () => {
      throw RevokeTask;
    })
    .handleFunc('throw-number', () => {
      // On purpose: JavaScript lets a handler throw anything, and it must still only fail the task.
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      throw 42;
    })
    .handleFunc('reject', () => Promise.reject(new Error('async failure')))
    .handleFunc('slow', (ctx) => new Promise<void>((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error))));
}

async function start(config = {}) {
  server = (await startTestServer(redis, mux(), config)).server;
}

describe('success', () => {
  it('done deletes the task, counts it and releases the unique lock it owns', async () => {
    const info = await enqueueTask(redis, { type: 'ok', payload: payload({ n: 1 }) }, { uniqueTtlSeconds: 300 }, new Date());
    const lock = info.message!.uniqueKey;
    expect(await redis.get(lock)).toBe(info.id);
    await start();
    await waitFor('done', async () => (await stateOf(redis, 'default', info.id)) === 'deleted');
    expect(await redis.exists(lock)).toBe(0);
    expect(await redis.get(k.processedTotalKey('default'))).toBe('1');
    expect(await redis.get(k.processedKey('default', today()))).toBe('1');
    expect(await redis.ttl(k.processedKey('default', today()))).toBeGreaterThan(89 * 86_400);
    expect(await redis.llen(k.activeKey('default'))).toBe(0);
    expect(await redis.zcard(k.leaseKey('default'))).toBe(0);
    expect(await redis.get(k.failedTotalKey('default'))).toBeNull();
  });

  it('done leaves a lock that another task holds by now', async () => {
    const info = await enqueueTask(redis, { type: 'ok', payload: payload({ n: 2 }) }, { uniqueTtlSeconds: 300 }, new Date());
    const lock = info.message!.uniqueKey;
    await redis.set(lock, 'someone-else', 'EX', 300);
    await start();
    await waitFor('done', async () => (await stateOf(redis, 'default', info.id)) === 'deleted');
    expect(await redis.get(lock)).toBe('someone-else');
  });

  it('with retention: completed until now + retention, completed_at set, result kept, lock released', async () => {
    const before = nowSec();
    const info = await enqueueTask(redis, { type: 'result', payload: payload({ r: 1 }) }, { retentionSeconds: 3600, uniqueTtlSeconds: 60 }, new Date());
    await start();
    const t = await waitFor('completed', () => readTask(redis, 'default', info.id).then((t) => (t?.state === 'completed' ? t : null)));
    expect(t.result?.toString()).toBe('done:{"r":1}');
    expect(t.msg.completedAt).toBeGreaterThanOrEqual(before);
    const score = Number(await redis.zscore(k.completedKey('default'), info.id));
    expect(score).toBe(t.msg.completedAt + 3600);
    expect(await redis.exists(info.message!.uniqueKey)).toBe(0);
    expect(await redis.get(k.processedTotalKey('default'))).toBe('1');
  });

  it('RevokeTask: deleted as done even with a retention, lock released', async () => {
    const info = await enqueueTask(redis, { type: 'revoke', payload: null }, { retentionSeconds: 3600, uniqueTtlSeconds: 60 }, new Date());
    await start();
    await waitFor('revoked', async () => (await stateOf(redis, 'default', info.id)) === 'deleted');
    expect(await redis.exists(info.message!.uniqueKey)).toBe(0);
    expect(await redis.zcard(k.completedKey('default'))).toBe(0);
    expect(await redis.get(k.processedTotalKey('default'))).toBe('1');
  });
});

describe('failure', () => {
  it('retry: retried + 1, error text, asynq default delay, both counters, lock kept', async () => {
    const info = await enqueueTask(redis, { type: 'fail:x', payload: null }, { uniqueTtlSeconds: 300 }, new Date());
    const before = nowSec();
    await start();
    const t = await waitFor('retry', () => readTask(redis, 'default', info.id).then((t) => (t?.state === 'retry' ? t : null)));
    const after = nowSec();
    expect(t.msg.retried).toBe(1);
    expect(t.msg.errorMsg).toBe('fail: fail:x');
    expect(t.msg.lastFailedAt).toBeGreaterThanOrEqual(before);
    const retryAt = Number(await redis.zscore(k.retryKey('default'), info.id));
    expect(retryAt).toBeGreaterThanOrEqual(before + 15);
    expect(retryAt).toBeLessThanOrEqual(after + 15 + 29);
    for (const key of [k.processedTotalKey('default'), k.failedTotalKey('default'), k.processedKey('default', today()), k.failedKey('default', today())]) {
      expect(await redis.get(key), key).toBe('1');
    }
    expect(await redis.get(info.message!.uniqueKey)).toBe(info.id);
  });

  it('a custom retry delay and a non-failure (isFailure false) retry without counting', async () => {
    const info = await enqueueTask(redis, { type: 'fail:y', payload: null }, {}, new Date());
    const before = nowSec();
    await start({ retryDelay: () => 1000, isFailure: () => false });
    const t = await waitFor('retry', () => readTask(redis, 'default', info.id).then((t) => (t?.state === 'retry' ? t : null)));
    expect(t.msg.retried).toBe(0);
    expect(t.msg.errorMsg).toBe('fail: fail:y');
    expect(Number(await redis.zscore(k.retryKey('default'), info.id))).toBeGreaterThanOrEqual(before + 1000);
    expect(await redis.get(k.processedTotalKey('default'))).toBeNull();
    expect(await redis.get(k.failedTotalKey('default'))).toBeNull();
  });

  it('retries until MaxRetry, then archives with the exact last error and retried = MaxRetry', async () => {
    const info = await enqueueTask(redis, { type: 'fail:z', payload: null }, { maxRetry: 2, uniqueTtlSeconds: 300 }, new Date());
    await start({ retryDelay: () => 0 });
    const t = await waitFor('archived', () => readTask(redis, 'default', info.id).then((t) => (t?.state === 'archived' ? t : null)));
    expect(t.msg.retried).toBe(2);
    expect(t.msg.errorMsg).toBe('fail: fail:z');
    expect(Number(await redis.zscore(k.archivedKey('default'), info.id))).toBeGreaterThanOrEqual(t.msg.lastFailedAt);
    expect(await redis.get(k.processedTotalKey('default'))).toBe('3');
    expect(await redis.get(k.failedTotalKey('default'))).toBe('3');
    expect(await redis.get(info.message!.uniqueKey)).toBe(info.id);
  });

  it.each([
    ['report:new', 'handler not found for task "report:new"'],
    ['skip', 'bad input: skip retry for the task'],
    ['throw-number', '42'],
    ['reject', 'async failure'],
  ])('%s with MaxRetry 0 is archived with %j', async (type, text) => {
    const info = await enqueueTask(redis, { type, payload: null }, { maxRetry: 0 }, new Date());
    await start();
    const t = await waitFor('archived', () => readTask(redis, 'default', info.id).then((t) => (t?.state === 'archived' ? t : null)));
    expect(t.msg.errorMsg).toBe(text);
    expect(t.msg.retried).toBe(0);
  });

  it('SkipRetry archives at once even with retries left', async () => {
    const info = await enqueueTask(redis, { type: 'skip', payload: null }, { maxRetry: 5 }, new Date());
    await start();
    const t = await waitFor('archived', () => readTask(redis, 'default', info.id).then((t) => (t?.state === 'archived' ? t : null)));
    expect(t.msg.retried).toBe(0);
    expect(await redis.get(k.failedTotalKey('default'))).toBe('1');
  });

  it('a not-found task with retries left goes to retry with the not-found text', async () => {
    const info = await enqueueTask(redis, { type: 'report:new', payload: null }, { maxRetry: 3 }, new Date());
    await start();
    const t = await waitFor('retry', () => readTask(redis, 'default', info.id).then((t) => (t?.state === 'retry' ? t : null)));
    expect(t.msg.errorMsg).toBe('handler not found for task "report:new"');
    expect(t.msg.retried).toBe(1);
  });

  it('timeout: the handler sees its signal abort and the task fails with context deadline exceeded', async () => {
    const info = await enqueueTask(redis, { type: 'slow', payload: null }, { maxRetry: 0, timeoutSeconds: 1 }, new Date());
    const started = Date.now();
    await start();
    const t = await waitFor('archived', () => readTask(redis, 'default', info.id).then((t) => (t?.state === 'archived' ? t : null)));
    expect(t.msg.errorMsg).toBe('context deadline exceeded');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('a deadline already past fails without running the handler', async () => {
    let ran = false;
    const m = new ServeMux().handleFunc('late', () => void (ran = true));
    const info = await enqueueTask(redis, { type: 'late', payload: null }, { maxRetry: 0, deadline: new Date(Date.now() - 5000) }, new Date());
    server = (await startTestServer(redis, m)).server;
    const t = await waitFor('archived', () => readTask(redis, 'default', info.id).then((t) => (t?.state === 'archived' ? t : null)));
    expect(t.msg.errorMsg).toBe('context deadline exceeded');
    expect(ran).toBe(false);
  });

  it('cancellation through asynq:cancel fails the task with context canceled', async () => {
    const info = await enqueueTask(redis, { type: 'slow', payload: null }, { maxRetry: 0 }, new Date());
    await start();
    await waitFor('active', async () => (await stateOf(redis, 'default', info.id)) === 'active');
    // The subscriber is up before the processor starts, so one publish is enough.
    expect(await redis.publish(k.CANCEL_CHANNEL, info.id)).toBeGreaterThanOrEqual(1);
    const t = await waitFor('archived', () => readTask(redis, 'default', info.id).then((t) => (t?.state === 'archived' ? t : null)));
    expect(t.msg.errorMsg).toBe('context canceled');
  });

  it('the error handler hears of every failed attempt with the task and its context', async () => {
    const heard: string[] = [];
    const info = await enqueueTask(redis, { type: 'fail:e', payload: null }, { maxRetry: 1 }, new Date());
    await start({ retryDelay: () => 0, errorHandler: (ctx: { retryCount: number }, task: { type: string }, err: unknown) => void heard.push(`${task.type}#${ctx.retryCount}:${(err as Error).message}`) });
    await waitFor('archived', async () => (await stateOf(redis, 'default', info.id)) === 'archived');
    expect(heard).toEqual(['fail:e#0:fail: fail:e', 'fail:e#1:fail: fail:e']);
  });
});
