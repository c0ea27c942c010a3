/**
 * A Redis that accepts connections but stops answering (DEBUG SLEEP, CLIENT PAUSE ALL, CLIENT
 * PAUSE WRITE). The first request waits out the command timeout (1 s here) and answers 503
 * "stalled"; every request after it answers 503 at once while one PING probes; the mark is
 * cleared the moment Redis answers the probe, and requests succeed again by themselves.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import * as k from '@/lib/asynq/keys';
import { isRedisStalled } from '@/lib/server/redis/stall';
import { get, post, report, sleep, timed, waitFor, useStallableRedis } from './helpers';
import { consoleRoutes } from '../../support/console-routes';

const TIMEOUT_MS = 1000;
const stallable = useStallableRedis('stall', TIMEOUT_MS);

/** PING calls Redis has served since the last CONFIG RESETSTAT. */
async function pings(): Promise<number> {
  const m = /cmdstat_ping:calls=(\d+)/.exec(await stallable.admin.info('commandstats'));
  return Number(m?.[1] ?? 0);
}

/**
 * The shared checks of a stall that lasts `stallMs` from `startedAt`: first request 503 after
 * the timeout, the next ones 503 at once naming the stall, one probe, recovery when it ends.
 */
async function expectStallHandled(name: string, startedAt: number, stallMs: number) {
  const r = await consoleRoutes();
  const first = await timed(() => get(r.queues.GET));
  report(`${name}: first request → 503`, first.ms);
  expect(first.status).toBe(503);
  expect(first.body.error).toMatchObject({ code: 'redis_unavailable', reason: 'stalled' });
  expect(first.body.error.message).toContain(`Redis at 127.0.0.1:${stallable.server.port}/0 is stalled: not answering within ${TIMEOUT_MS} ms`);
  expect(first.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
  expect(first.ms).toBeLessThan(TIMEOUT_MS + 300);
  expect(isRedisStalled()).toBe(true);

  // Ten tabs polling at once: all refused at once, none waits the timeout.
  const burst = await timed(async () => ({ all: await Promise.all(Array.from({ length: 10 }, () => get(r.queues.GET))) }));
  report(`${name}: 10 concurrent requests while marked stalled → 503`, burst.ms);
  expect(burst.all.map((x) => x.status)).toEqual(Array(10).fill(503));
  expect(burst.all[0]?.body.error.message).toMatch(/is stalled: not answering within 1000 ms \(for \d+ s\)/);
  expect(burst.ms).toBeLessThan(100);

  // Recovery: no restart, no reconnect; the first request once the probe answered succeeds.
  await waitFor('the stall to end', () => Date.now() >= startedAt + stallMs, stallMs + 1000, 10);
  const cleared = await waitFor('the probe to clear the mark', () => !isRedisStalled(), 2 * TIMEOUT_MS, 5);
  report(`${name}: mark cleared after the stall ended`, cleared);
  const back = await timed(() => get(r.queues.GET));
  expect(back.status, JSON.stringify(back.body)).toBe(200);
}

describe('a stalled Redis', () => {
  it('DEBUG SLEEP: 503 after the timeout, then 503 at once while one PING probes, then back by itself', async () => {
    const r = await consoleRoutes();
    expect((await get(r.queues.GET)).status).toBe(200);
    await stallable.admin.config('RESETSTAT');
    const sleeper = new Redis(stallable.server.url);
    await sleeper.ping();
    const startedAt = Date.now();
    const sleeping = sleeper.call('DEBUG', 'SLEEP', '3');
    try {
      await sleep(20); // the DEBUG is on the wire and Redis is in it
      await expectStallHandled('DEBUG SLEEP 3', startedAt, 3000);
    } finally {
      await sleeping;
      sleeper.disconnect();
    }
    // One probe at a time: a 3 s stall with a 1 s timeout costs about three PINGs, not one per request.
    const probes = await pings();
    expect(probes).toBeGreaterThanOrEqual(1);
    expect(probes).toBeLessThanOrEqual(4);
  });

  it('CLIENT PAUSE ALL: the same', async () => {
    const startedAt = Date.now();
    await stallable.admin.call('CLIENT', 'PAUSE', '2500', 'ALL');
    await expectStallHandled('CLIENT PAUSE 2500 ALL', startedAt, 2500);
  });

  it('CLIENT PAUSE WRITE: a change times out with outcome unknown and is applied once, late; reads wait behind it', async () => {
    const r = await consoleRoutes();
    // Load the enqueue script first: a NOSCRIPT answered after the pause would not be retried.
    expect((await post(r.tasks.POST, { qname: 'stalled' }, { type: 'warm' })).status).toBe(201);
    const before = await stallable.admin.llen(k.pendingKey('stalled'));
    await stallable.admin.call('CLIENT', 'PAUSE', '2500', 'WRITE');
    const startedAt = Date.now();
    // INFO is not a write: the readiness probe still answers while only writes are held.
    expect((await get(r.health.GET)).status).toBe(200);

    const change = await timed(() => post(r.tasks.POST, { qname: 'stalled' }, { type: 'email:welcome' }));
    report('CLIENT PAUSE WRITE: enqueue → 503', change.ms);
    expect(change.status).toBe(503);
    expect(change.body.error).toMatchObject({ code: 'redis_unavailable', reason: 'stalled', outcome: 'unknown' });
    expect(change.ms).toBeLessThan(TIMEOUT_MS + 300);
    // Our one connection now waits behind the held script, reads included: refused at once.
    const read = await timed(() => get(r.queues.GET));
    expect(read.status).toBe(503);
    expect(read.ms).toBeLessThan(50);

    await waitFor('the pause to end', () => Date.now() >= startedAt + 2500, 4000, 10);
    await waitFor('the probe to clear the mark', () => !isRedisStalled(), 2 * TIMEOUT_MS, 5);
    expect((await get(r.queues.GET)).status).toBe(200);
    // Redis held the enqueue and ran it when the pause ended: exactly once.
    expect(await stallable.admin.llen(k.pendingKey('stalled'))).toBe(before + 1);
  });
});
