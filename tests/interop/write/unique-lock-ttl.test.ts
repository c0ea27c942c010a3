/**
 * The unique lock of a task enqueued with ProcessIn + Unique, taken by the real asynq v0.26.0
 * client and by ours: the same TTL every time. Go reads the clock again after fixing
 * processAt (time.Until), so its lock is always a whole second short of ProcessIn + Unique
 * when both are whole seconds; one clock read and a plain truncation gave one second more.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueTask, scheduledLockTtl } from '@/lib/asynq/client/enqueue';
import * as k from '@/lib/asynq/keys';
import { openTestRedis } from '../../support/test-redis';
import { asynqGo, goEnqueue } from './go';

const DB = 102;
const ROUNDS = 12;

asynqGo.requireGo('unique-lock-ttl.test.ts');

/** The EX a lock was set with, from its PTTL read within a second of the SET. */
async function lockEx(redis: Redis, key: string): Promise<number> {
  const pttl = await redis.pttl(key);
  expect(pttl, `PTTL of ${key}`).toBeGreaterThan(0);
  return Math.ceil(pttl / 1000);
}

describe('scheduledLockTtl (the rule alone)', () => {
  const at = (ms: number) => new Date(ms);
  it('is the largest whole second strictly below processAt + TTL − now', () => {
    expect(scheduledLockTtl(at(1_000_000 + 10_000), 60, at(1_000_000))).toBe(69);
    expect(scheduledLockTtl(at(1_000_000 + 10_500), 60, at(1_000_000))).toBe(70);
    expect(scheduledLockTtl(at(1_000_000 + 10_999), 60, at(1_000_000))).toBe(70);
    expect(scheduledLockTtl(at(1_000_000 + 11_000), 60, at(1_000_000))).toBe(70);
    expect(scheduledLockTtl(at(1_000_000 + 1), 1, at(1_000_000))).toBe(1);
  });
});

describe.skipIf(asynqGo.noGo)('unique lock TTL with ProcessIn, Go client vs ours (asynq v0.26.0)', () => {
  let redis: Redis;

  beforeAll(async () => {
    await asynqGo.bin();
    redis = await openTestRedis(DB);
  });
  afterAll(() => redis?.disconnect());

  it.each([
    [10, 60],
    [1, 1],
    [3600, 300],
  ])(`ProcessIn(%is) + Unique(%is): the same lock TTL from both clients, ${ROUNDS} times each`, async (processIn, unique) => {
    const payload = Buffer.from(`p-${processIn}-${unique}`);
    const key = k.uniqueKey('ttl', 'lock:ttl', payload);
    const go: number[] = [];
    const ours: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      await redis.flushdb();
      const r = await goEnqueue(DB, {
        queue: 'ttl', type: 'lock:ttl', payloadBase64: payload.toString('base64'),
        options: { uniqueSeconds: unique, processInSeconds: processIn },
      });
      expect(r.ok, JSON.stringify(r)).toBe(true);
      go.push(await lockEx(redis, key));

      await redis.flushdb();
      const info = await enqueueTask(redis, { type: 'lock:ttl', payload }, { queue: 'ttl', uniqueTtlSeconds: unique, processInSeconds: processIn }, new Date());
      ours.push(await lockEx(redis, key));
      expect(info.uniqueLock?.ttlSeconds, 'the TTL our enqueue reports is the one it set').toBe(ours.at(-1));
    }
    expect(new Set(go), `Go's lock TTLs: ${go.join(', ')}`).toEqual(new Set([processIn + unique - 1]));
    expect(ours, "our lock TTLs vs Go's").toEqual(go);
  });
});
