/**
 * The per-queue lock routes decide which queue owns a lock by the rule of /api/locks (the
 * longest existing queue whose lock prefix the key starts with). The SCAN for queue `nest`'s
 * locks (`asynq:{nest}:unique:*`) also finds those of a queue named `nest}:unique:zz`: they are
 * not listed under `nest` (where their holders look gone, "orphaned, safe to release"), and
 * releasing one through `nest` is refused with nothing deleted.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keys as k, releaseLock } from '@/lib/asynq';
import { json, newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedLock, seedPending } from '@/lib/asynq/testutil/seed';
import { callRoute, type Handler } from '../../support/call-route';
import { snapshot } from '../../support/redis-snapshot';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import { consoleRoutes } from '../../support/console-routes';

const DB = 111;
const NEST = 'nest';
const ODD = 'nest}:unique:zz';
let redis: Redis;
let queueLocks: { GET: Handler; DELETE: Handler };
let allLocks: Handler;

beforeAll(async () => {
  process.env.REDIS_URL = testRedisUrl(DB);
  redis = await openTestRedis(DB);
  queueLocks = (await consoleRoutes()).locks;
  allLocks = (await consoleRoutes()).allLocks.GET;
});
afterAll(() => redis.quit());

interface Seeded { nestLive: string; nestOrphan: string; oddLive: string; oddHolder: string }
let seeded: Seeded;

/** Queue nest: one lock of a live pending task, one whose holder is gone. Queue nest}:unique:zz: one live lock. */
async function seed(): Promise<Seeded> {
  const live = (queue: string, type: string) => {
    const payload = json({ type });
    return newTaskMessage({ type, queue, payload, uniqueKey: k.uniqueKey(queue, type, payload) });
  };
  const a = live(NEST, 'email');
  await seedPending(redis, a);
  await seedLock(redis, a.uniqueKey, a.id, 600);
  const orphan = k.uniqueKey(NEST, 'gone', json({}));
  await seedLock(redis, orphan, 'no-such-task', 600);
  const z = live(ODD, 'report');
  await seedPending(redis, z);
  await seedLock(redis, z.uniqueKey, z.id, 600);
  // The odd queue's lock is under nest's lock prefix: that is the whole problem.
  expect(z.uniqueKey.startsWith(k.uniqueKeyPrefix(NEST))).toBe(true);
  return { nestLive: a.uniqueKey, nestOrphan: orphan, oddLive: z.uniqueKey, oddHolder: z.id };
}

beforeEach(async () => {
  await redis.flushdb();
  seeded = await seed();
});

const keysOf = (body: { locks: { key: string }[] }) => body.locks.map((l) => l.key).sort();

describe(`GET /api/queues/${NEST}/locks beside a queue named ${JSON.stringify(ODD)}`, () => {
  it('lists only nest’s own locks; the odd queue lists its lock as held by a live pending task', async () => {
    const nest = await callRoute(queueLocks.GET, '/api/x', { qname: NEST });
    expect(nest.status).toBe(200);
    expect(keysOf(nest.body)).toEqual([seeded.nestLive, seeded.nestOrphan].sort());

    const odd = await callRoute(queueLocks.GET, '/api/x', { qname: ODD });
    expect(odd.status).toBe(200);
    expect(odd.body.locks).toHaveLength(1);
    expect(odd.body.locks[0]).toMatchObject({ queue: ODD, key: seeded.oddLive, holderId: seeded.oddHolder, holderState: 'pending', findings: [] });
  });

  it('agrees with /api/locks on every lock’s queue', async () => {
    const all = await callRoute(allLocks, '/api/locks');
    expect(all.status).toBe(200);
    const owners = Object.fromEntries(all.body.locks.map((l: { key: string; queue: string }) => [l.key, l.queue]));
    expect(owners).toEqual({ [seeded.nestLive]: NEST, [seeded.nestOrphan]: NEST, [seeded.oddLive]: ODD });
  });

  it('answers ?key= of the odd queue’s lock with 400 naming key and the rule', async () => {
    const res = await callRoute(queueLocks.GET, `/api/x?key=${encodeURIComponent(seeded.oddLive)}`, { qname: NEST });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_argument', field: 'key' });
    expect(res.body.error.message).toContain(`lock of queue ${JSON.stringify(ODD)}, not of queue "nest"`);
  });
});

describe(`DELETE /api/queues/${NEST}/locks?key=<a lock of ${JSON.stringify(ODD)}>`, () => {
  it('is refused with 400 naming key and the rule, with or without holder, and deletes nothing', async () => {
    const before = await snapshot(redis);
    for (const holder of [undefined, seeded.oddHolder]) {
      const qs = new URLSearchParams({ key: seeded.oddLive, ...(holder ? { holder } : {}) });
      const res = await callRoute(queueLocks.DELETE, `/api/x?${qs}`, { qname: NEST }, { method: 'DELETE' });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_argument', field: 'key' });
      expect(res.body.error.message).toContain('a key belongs to the longest existing queue whose prefix asynq:{<queue>}:');
    }
    expect(await snapshot(redis)).toEqual(before);
    expect(await redis.get(seeded.oddLive)).toBe(seeded.oddHolder);
  });

  it('still releases nest’s own orphaned lock, and the odd queue’s lock through its own queue only when its holder is gone', async () => {
    const res = await callRoute(queueLocks.DELETE, `/api/x?key=${encodeURIComponent(seeded.nestOrphan)}`, { qname: NEST }, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(await redis.exists(seeded.nestOrphan)).toBe(0);
    // Through its own queue the lock is judged against its real holder: pending, so 409.
    const own = await callRoute(queueLocks.DELETE, `/api/x?key=${encodeURIComponent(seeded.oddLive)}`, { qname: ODD }, { method: 'DELETE' });
    expect(own.status).toBe(409);
    expect(await redis.get(seeded.oddLive)).toBe(seeded.oddHolder);
  });

  it('is refused by the core too, whatever the caller', async () => {
    await expect(releaseLock(redis, NEST, seeded.oddLive)).rejects.toMatchObject({ kind: 'invalid_argument', details: { field: 'key' } });
    expect(await redis.get(seeded.oddLive)).toBe(seeded.oddHolder);
  });
});

describe(`the other string keys of ${JSON.stringify(ODD)} (its paused flag, its counters)`, () => {
  // asynq:{nest}:unique:zz}:paused is under nest's lock prefix and holds a string, like a lock.
  const paused = k.pausedKey(ODD);
  const processed = k.processedTotalKey(ODD);

  beforeEach(async () => {
    await redis.set(paused, String(Math.floor(Date.now() / 1000)));
    await redis.set(processed, '42');
  });

  it('are no locks: neither nest’s listing nor /api/locks shows them', async () => {
    expect(paused.startsWith(k.uniqueKeyPrefix(NEST))).toBe(true);
    const nest = await callRoute(queueLocks.GET, '/api/x', { qname: NEST });
    expect(keysOf(nest.body)).toEqual([seeded.nestLive, seeded.nestOrphan].sort());
    const all = await callRoute(allLocks, '/api/locks');
    expect(keysOf(all.body)).toEqual([seeded.nestLive, seeded.nestOrphan, seeded.oddLive].sort());
  });

  it('cannot be deleted through nest’s lock route (which would unpause the queue)', async () => {
    const before = await snapshot(redis);
    for (const key of [paused, processed]) {
      const res = await callRoute(queueLocks.DELETE, `/api/x?key=${encodeURIComponent(key)}`, { qname: NEST }, { method: 'DELETE' });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_argument', field: 'key' });
      expect(res.body.error.message).toContain('key is no lock: it is a key of another queue, not of queue "nest"');
    }
    expect(await snapshot(redis)).toEqual(before);
  });
});

describe('when the odd queue is no longer in asynq:queues', () => {
  it('its lock falls to nest by the /api/locks rule, and both routes agree', async () => {
    await redis.srem(k.ALL_QUEUES, ODD);
    const nest = await callRoute(queueLocks.GET, '/api/x', { qname: NEST });
    const all = await callRoute(allLocks, '/api/locks');
    const allNest = all.body.locks.filter((l: { queue: string }) => l.queue === NEST).map((l: { key: string }) => l.key).sort();
    expect(keysOf(nest.body)).toEqual(allNest);
    expect(allNest).toContain(seeded.oddLive);
  });
});
