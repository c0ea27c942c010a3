/**
 * DELETE /api/queues/{q}/locks?key=K[&holder=ID]: refused while the holder may still run,
 * allowed once it is gone or finished, never deleting a lock that changed owner meanwhile.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keys as k, releaseLock, type TaskMessage } from '@/lib/asynq';
import { json, newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedActive, seedAggregating, seedLock, seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import { callRoute, type Handler } from '../../support/call-route';
import { consoleRoutes } from '../../support/console-routes';
import { snapshot } from '../../support/redis-snapshot';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';

const DB = 51;
const Q = 'rel';
let redis: Redis;
let del: Handler;
let get: Handler;

beforeAll(async () => {
  process.env.REDIS_URL = testRedisUrl(DB);
  redis = await openTestRedis(DB);
  const { locks: route } = await consoleRoutes();
  del = route.DELETE;
  get = route.GET;
});
beforeEach(async () => {
  await redis.flushdb();
});
afterAll(async () => {
  await redis.quit();
});

function unique(type: string, over: Partial<TaskMessage> = {}): TaskMessage {
  const payload = json({ type });
  return newTaskMessage({ type, queue: Q, payload, uniqueKey: k.uniqueKey(Q, type, payload), ...over });
}

const release = (key: string, holder?: string, headers: Record<string, string> = {}) => {
  const qs = new URLSearchParams({ key, ...(holder ? { holder } : {}) });
  return callRoute(del, `/api/queues/${encodeURIComponent(Q)}/locks?${qs}`, { qname: Q }, { method: 'DELETE', headers });
};

describe('releasing a lock', () => {
  it('is refused (409) while the holder is pending, scheduled, retry, active or aggregating', async () => {
    const now = Math.floor(Date.now() / 1000);
    const seeds: [string, (m: TaskMessage) => Promise<unknown>][] = [
      ['pending', (m) => seedPending(redis, m)],
      ['scheduled', (m) => seedZset(redis, 'scheduled', m, now + 60)],
      ['retry', (m) => seedZset(redis, 'retry', m, now + 60)],
      ['active', (m) => seedActive(redis, m)],
      ['aggregating', (m) => seedAggregating(redis, { ...m, groupKey: 'g' })],
    ];
    for (const [state, seed] of seeds) {
      const m = unique(`t:${state}`);
      await seed(m);
      await seedLock(redis, m.uniqueKey, m.id, 100);
      const before = await snapshot(redis);
      const res = await release(m.uniqueKey);
      expect(res.status, state).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'failed_precondition', holderId: m.id, holderState: state, key: m.uniqueKey });
      expect(res.body.error.message).toContain(`which is ${state}`);
      expect(await snapshot(redis)).toEqual(before);
    }
  });

  it('deletes the lock (204) when the holder is gone, completed or archived', async () => {
    const gone = unique('gone');
    await seedLock(redis, gone.uniqueKey, gone.id, 100);
    const done = unique('done');
    await seedZset(redis, 'completed', done, Math.floor(Date.now() / 1000) + 60);
    await seedLock(redis, done.uniqueKey, done.id, 100);
    const archived = unique('arch');
    await seedZset(redis, 'archived', archived, 1);
    await seedLock(redis, archived.uniqueKey, archived.id);
    for (const m of [gone, done, archived]) {
      const res = await release(m.uniqueKey, m.id);
      expect(res.status, m.type).toBe(204);
      expect(await redis.exists(m.uniqueKey)).toBe(0);
    }
    // The holders themselves are untouched.
    expect(await redis.hget(k.taskKey(Q, done.id), 'state')).toBe('completed');
    expect(await redis.hget(k.taskKey(Q, archived.id), 'state')).toBe('archived');
  });

  it('never deletes a lock that changed owner after it was listed', async () => {
    const old = unique('race');
    await seedLock(redis, old.uniqueKey, old.id, 100); // orphaned: its holder is gone
    const listed = await callRoute(get, `/api/queues/${Q}/locks`, { qname: Q });
    expect(listed.body.locks[0]).toMatchObject({ holderId: old.id, findings: [{ code: 'orphaned' }] });
    // Meanwhile the lock expires and a new task takes it (asynq's SET NX EX).
    const fresh = unique('race');
    await redis.del(old.uniqueKey);
    await seedPending(redis, fresh);
    await seedLock(redis, fresh.uniqueKey, fresh.id, 100);
    const res = await release(old.uniqueKey, old.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'failed_precondition', holderId: fresh.id, expectedHolderId: old.id });
    expect(res.body.error.message).toMatch(/^lock changed owner/);
    expect(await redis.get(fresh.uniqueKey)).toBe(fresh.id);
  });

  it('checks the owner inside the script, so a change after the GET cannot slip through', async () => {
    const m = unique('atomic');
    await seedLock(redis, m.uniqueKey, m.id, 100);
    // The script is handed holder m.id, but the lock now belongs to someone else.
    await redis.set(m.uniqueKey, 'someone-else', 'EX', 100);
    expect(await releaseLock(redis, Q, m.uniqueKey, m.id)).toEqual({ released: false, reason: 'owner_changed', holderId: 'someone-else' });
    expect(await redis.get(m.uniqueKey)).toBe('someone-else');
  });

  it('answers 404 for a lock that is gone and 400 for a key of another queue', async () => {
    const missing = await release(k.uniqueKey(Q, 'nope', null));
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('lock_not_found');
    const foreign = k.uniqueKey('other', 't', null);
    await seedLock(redis, foreign, 'x', 100);
    for (const key of [foreign, k.pendingKey(Q), k.uniqueKeyPrefix(Q)]) {
      const res = await release(key);
      expect(res.status, key).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_argument', field: 'key' });
    }
    expect(await redis.get(foreign)).toBe('x');
    const noKey = await callRoute(del, `/api/queues/${Q}/locks`, { qname: Q }, { method: 'DELETE' });
    expect(noKey.status).toBe(400);
  });

  it('is refused from another site', async () => {
    const m = unique('guarded');
    await seedLock(redis, m.uniqueKey, m.id, 100);
    const cross = await release(m.uniqueKey, undefined, { origin: 'http://evil.example' });
    expect(cross.status).toBe(403);
    expect(cross.body.error.code).toBe('forbidden');
    expect(await redis.get(m.uniqueKey)).toBe(m.id);
  });
});
