/**
 * The dequeue loop's bounds (lib/asynq/worker/processor.ts): while the queues have tasks, up to
 * 4 dequeues are in flight, each only for a free worker slot, so no more tasks run than the
 * concurrency; once a dequeue comes back empty, the server polls with one at a time.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { batchEnqueue } from '@/lib/asynq/client/batch-enqueue';
import * as k from '@/lib/asynq/keys';
import { ServeMux } from '@/lib/asynq/worker';
import { MAX_DEQUEUES_IN_FLIGHT } from '@/lib/asynq/worker/processor';
import { openTestRedis } from '../../support/test-redis';
import { startTestServer, waitFor } from './helpers';

const DB = 49;
let redis: Redis;

/** Counts the dequeue script calls in flight on `r` (they are the calls whose first key is a pending list). */
function dequeueTracker(r: Redis): { max(): number; calls(): number; reset(): void } {
  const original = r.callBuffer.bind(r) as (...args: unknown[]) => Promise<unknown>;
  let now = 0;
  let max = 0;
  let calls = 0;
  (r as unknown as { callBuffer: (...args: unknown[]) => Promise<unknown> }).callBuffer = (...args: unknown[]) => {
    const isDequeue = String(args[0]).startsWith('EVAL') && String(args[3]).endsWith(':pending') && args[2] === 4;
    if (!isDequeue) return original(...args);
    now += 1;
    calls += 1;
    max = Math.max(max, now);
    return original(...args).finally(() => (now -= 1));
  };
  return {
    max: () => max,
    calls: () => calls,
    reset() {
      max = now;
      calls = 0;
    },
  };
}

beforeAll(async () => {
  redis = await openTestRedis(DB);
});
beforeEach(async () => {
  await redis.flushdb();
});
afterAll(() => redis.quit());

describe('dequeues in flight', () => {
  it('a burst: several dequeues at once, never more than 4, never more tasks running than the concurrency', async () => {
    const tracker = dequeueTracker(redis);
    const items = Array.from({ length: 300 }, (_, i) => ({ task: { type: 'quick', payload: Buffer.from(String(i)) }, options: { queue: 'burst' } }));
    expect((await batchEnqueue(redis, items, new Date())).every((r) => r.ok)).toBe(true);
    let running = 0;
    let maxRunning = 0;
    let done = 0;
    const mux = new ServeMux().handleFunc('quick', async () => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setImmediate(r));
      running -= 1;
      done += 1;
    });
    const { server } = await startTestServer(redis, mux, { concurrency: 6, queues: { burst: 1 } });
    await waitFor('all 300 handled', () => done === 300);
    await waitFor('all written back', async () => Number(await redis.get(k.processedTotalKey('burst'))) === 300);
    await server.shutdown();
    expect(maxRunning, 'handlers running at once').toBeLessThanOrEqual(6);
    expect(tracker.max(), 'dequeues in flight at once').toBeLessThanOrEqual(MAX_DEQUEUES_IN_FLIGHT);
    expect(tracker.max(), 'more than one while the queue had tasks').toBeGreaterThan(1);
  });

  it('slots full: no dequeue is sent until a task finishes', async () => {
    const tracker = dequeueTracker(redis);
    const items = Array.from({ length: 5 }, (_, i) => ({ task: { type: 'hold', payload: Buffer.from(String(i)) }, options: { queue: 'full' } }));
    await batchEnqueue(redis, items, new Date());
    const release: (() => void)[] = [];
    const mux = new ServeMux().handleFunc('hold', () => new Promise<void>((r) => release.push(r)));
    const { server } = await startTestServer(redis, mux, { concurrency: 2, queues: { full: 1 } });
    await waitFor('two running', () => release.length === 2);
    tracker.reset();
    await new Promise((r) => setTimeout(r, 300));
    expect(tracker.calls(), 'dequeues while both slots are taken').toBe(0);
    expect(await redis.llen(k.activeKey('full')), 'active in Redis').toBe(2);
    expect(await redis.llen(k.pendingKey('full')), 'still pending').toBe(3);
    release.splice(0).forEach((r) => r());
    await waitFor('two more running', () => release.length === 2);
    release.splice(0).forEach((r) => r());
    await waitFor('the last one running', () => release.length === 1);
    release.splice(0).forEach((r) => r());
    await server.shutdown();
  });

  it('empty queues: one dequeue at a time while polling', async () => {
    const tracker = dequeueTracker(redis);
    const { server } = await startTestServer(redis, new ServeMux(), { concurrency: 10, queues: { idle: 1 }, taskCheckIntervalMs: 50 });
    await new Promise((r) => setTimeout(r, 1000));
    await server.shutdown();
    expect(tracker.calls(), 'it did poll').toBeGreaterThan(5);
    expect(tracker.max(), 'dequeues in flight at once while idle').toBe(1);
  });
});
