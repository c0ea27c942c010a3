/**
 * How many passwords an attacker can try against one account in an hour, measured: the real
 * throttle (admit/settle) on a real Redis, with every duration of the default policy divided by
 * SCALE so that an hour passes in 3600/SCALE seconds. The attacker retries the moment a turn
 * frees up (polling every POLL_MS), which is the best it can do.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { admit, DEFAULT_POLICY, settle, type ThrottlePolicy } from '@/lib/server/auth/throttle';
import { openTestRedis } from '../../support/test-redis';

const DB = 123;
const SCALE = 240;
const POLL_MS = 2;
const HOUR_MS = 3_600_000 / SCALE;
const scaled: ThrottlePolicy = {
  ...DEFAULT_POLICY,
  firstDelayMs: DEFAULT_POLICY.firstDelayMs / SCALE,
  maxDelayMs: DEFAULT_POLICY.maxDelayMs / SCALE,
  windowMs: DEFAULT_POLICY.windowMs / SCALE,
  busyMs: Math.ceil(DEFAULT_POLICY.busyMs / SCALE),
};
let redis: Redis;

beforeAll(async () => {
  redis = await openTestRedis(DB);
});
beforeEach(async () => {
  await redis.flushdb();
});
afterAll(async () => {
  await redis.quit();
});

/** Guesses the throttle let through in one (scaled) hour, trying addresses in turn, fresh ones first. */
async function guessesInAnHour(addresses: number): Promise<number> {
  const end = Date.now() + HOUR_MS;
  let guesses = 0;
  let next = 0;
  while (Date.now() < end) {
    const a = { addr: `203.0.${Math.floor(next / 250)}.${next % 250}`, account: 'alice' };
    next = (next + 1) % addresses;
    const gate = await admit(redis, a, scaled);
    if (gate.ok) {
      guesses++;
      await settle(redis, a, true, scaled);
    } else if (next === 0) {
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
  return guesses;
}

describe('guesses per hour against one account', () => {
  it('from one address: about two dozen in the first hour', async () => {
    const n = await guessesInAnHour(1);
    console.log(`[guess-rate] one address: ${n} guesses in the first hour`);
    // 5 free, then 1+2+…+256 s (9 turns), then one per 5 minutes: 5 + 9 + 10 = 24.
    expect(n).toBeGreaterThanOrEqual(20);
    expect(n).toBeLessThanOrEqual(28);
  }, 60_000);

  it('from 200 addresses: one per fresh address, plus the account’s shared turns', async () => {
    const n = await guessesInAnHour(200);
    console.log(`[guess-rate] 200 addresses: ${n} guesses in the first hour`);
    expect(n).toBeGreaterThanOrEqual(200);
    expect(n).toBeLessThanOrEqual(200 + 28);
  }, 60_000);
});
