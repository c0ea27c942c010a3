/**
 * Roles and the audit log, over every mutation route the app has (listed from app/api, so a new
 * route cannot be forgotten): a viewer gets 403 forbidden_role and changes nothing; an operator
 * acts and the audit log names who, what and how many.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditPageSchema } from '@/lib/contract/audit';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import { AUDITED_ROUTES } from '@/lib/server/audit/actions';
import { callRoute, type Handler } from '../../support/call-route';
import { consoleRoutes, type ConsoleRoutes } from '../../support/console-routes';
import { snapshot } from '../../support/redis-snapshot';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import { SECRET, WRITE_METHODS, apiRoutes, asHandler, fill, sessionCookie, usersEnv, type RouteFile } from './support';

const DB = 91;
let redis: Redis;
let routes: RouteFile[];
let api: ConsoleRoutes;
const json = { 'content-type': 'application/json' };
let viewer: string, operator: string;

/**
 * Write-method routes that only read, each for a stated reason; every other one is a mutation.
 * Adding a route here is a decision a reviewer sees.
 */
const READS_BY_WRITE_METHOD: Record<string, string> = {
  'POST /api/queues/[qname]/enqueue-check': 'a read with a large body (the payload)',
  'POST /api/routing/explain': 'a read with a large body (the patterns)',
  'DELETE /api/queues/[qname]/duplicates': 'cancels an in-memory scan; Redis is not changed',
  'POST /api/auth/login': 'sign-in',
  'POST /api/auth/logout': 'sign-out',
  'POST /api/auth/logout-everywhere': 'sign-out of every session of the caller',
};

function writeRoutes(): { key: string; handler: Handler; method: string; pattern: string }[] {
  return routes.flatMap((r) =>
    WRITE_METHODS.filter((m) => typeof r.module[m] === 'function').map((m) => ({ key: `${m} ${r.pattern}`, handler: asHandler(r.module[m]), method: m, pattern: r.pattern })),
  );
}

beforeAll(async () => {
  process.env.REDIS_URL = testRedisUrl(DB);
  process.env.ASYNQLENS_AUTH = 'login';
  process.env.ASYNQLENS_AUDIT = 'on';
  process.env.ASYNQLENS_SESSION_SECRET = SECRET;
  process.env.ASYNQLENS_USERS = await usersEnv([['alice', 'operator'], ['victor', 'viewer']]);
  redis = await openTestRedis(DB);
  routes = await apiRoutes();
  api = await consoleRoutes();
});
beforeEach(async () => {
  await redis.flushdb();
  [viewer, operator] = await Promise.all([sessionCookie('victor', 'viewer'), sessionCookie('alice', 'operator')]);
});
afterAll(async () => {
  await redis.quit();
});

describe('mutation routes', () => {
  it('are all known: each is a listed read or has an audit name', () => {
    const mutations = writeRoutes().map((r) => r.key).filter((k) => !(k in READS_BY_WRITE_METHOD));
    expect(mutations.length).toBeGreaterThanOrEqual(13);
    expect(mutations.filter((k) => !AUDITED_ROUTES.includes(k))).toEqual([]);
    expect(AUDITED_ROUTES.filter((k) => !mutations.includes(k))).toEqual([]);
  });

  it('refuse a viewer with 403 forbidden_role, change nothing, and count the refusal', async () => {
    await redis.sadd('asynq:queues', 'q');
    await seedPending(redis, newTaskMessage({ type: 't', queue: 'q' }));
    const before = await snapshot(redis);
    const mutations = writeRoutes().filter((r) => !(r.key in READS_BY_WRITE_METHOD));
    for (const r of mutations) {
      const { path, params } = fill(r.pattern);
      const res = await callRoute(r.handler, path, params, { method: r.method, headers: { ...json, cookie: viewer }, body: r.method === 'DELETE' ? undefined : '{}' });
      expect(res.status, r.key).toBe(403);
      expect(res.body.error.code, r.key).toBe('forbidden_role');
      expect(res.body.error.message, r.key).toContain('viewer');
    }
    // Refusals are counted per hour, principal and route, apart from the record of changes.
    expect(await redis.exists('asynqlens:audit')).toBe(0);
    const [key, ...more] = await redis.keys('asynqlens:audit:{refusals}:*');
    expect(more).toEqual([]);
    const counts = Object.entries(await redis.hgetall(key!)).map(([f, v]) => [JSON.parse(f) as string[], JSON.parse(v) as Record<string, unknown>] as const);
    expect(counts.map(([[, method, pattern]]) => `${method} ${pattern}`).sort()).toEqual(mutations.map((r) => r.key).sort());
    for (const [[user], v] of counts) expect({ user, ...v }).toMatchObject({ user: 'victor', role: 'viewer', status: 403, code: 'forbidden_role', count: 1 });
    await redis.del(key!);
    expect(await snapshot(redis)).toEqual(before);
  });

  it('refuse requests without a session with 401 and record nothing', async () => {
    // The signed-in users' sessions (made by the suite's set-up) are there before; nothing else may appear.
    const before = (await redis.keys('asynqlens:*')).sort();
    for (const r of writeRoutes().filter((w) => !(w.key in READS_BY_WRITE_METHOD))) {
      const { path, params } = fill(r.pattern);
      const res = await callRoute(r.handler, path, params, { method: r.method, headers: json, body: r.method === 'DELETE' ? undefined : '{}' });
      expect(res.status, r.key).toBe(401);
    }
    expect((await redis.keys('asynqlens:*')).sort()).toEqual(before);
    expect(before.filter((k) => k.startsWith('asynqlens:audit'))).toEqual([]);
  });
});

describe('an operator', () => {
  it('archives all pending tasks; the audit record names user, action, target and count', async () => {
    const bulk = api.bulk.POST as Handler;
    for (let i = 0; i < 3; i++) await seedPending(redis, newTaskMessage({ type: 't', queue: 'q' }));
    const res = await callRoute(bulk, '/api/queues/q/bulk', { qname: 'q' }, { method: 'POST', headers: { ...json, cookie: operator }, body: JSON.stringify({ action: 'archive', state: 'pending' }) });
    expect(res.status).toBe(200);
    expect(res.body.succeeded).toBe(3);
    const [rec] = (await redis.lrange('asynqlens:audit', 0, -1)).map((s) => JSON.parse(s));
    expect(rec).toMatchObject({
      user: 'alice',
      role: 'operator',
      action: 'archive-all',
      method: 'POST',
      path: '/api/queues/q/bulk',
      target: { queue: 'q', state: 'pending' },
      count: 3,
      status: 200,
      code: null,
    });
    expect(Date.parse(rec.at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('reschedules a task; the record names the task and the time it was given', async () => {
    const m = newTaskMessage({ type: 't', queue: 'q' });
    await seedZset(redis, 'retry', m, Math.floor(Date.now() / 1000) + 3600);
    const at = new Date(Date.now() + 120_000).toISOString();
    const res = await callRoute(api.reschedule.POST, `/api/queues/q/tasks/${m.id}/reschedule`, { qname: 'q', taskId: m.id }, {
      method: 'POST', headers: { ...json, cookie: operator }, body: JSON.stringify({ processAt: at }),
    });
    expect(res.status).toBe(200);
    const [rec] = (await redis.lrange('asynqlens:audit', 0, -1)).map((s) => JSON.parse(s));
    expect(rec).toMatchObject({ user: 'alice', action: 'reschedule-task', target: { queue: 'q', taskId: m.id, processAt: at }, status: 200, code: null });
  });

  it('streams a bulk delete; the record is written when the stream ends, with the final count', async () => {
    const bulk = api.bulk.POST as Handler;
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const m = newTaskMessage({ type: 't', queue: 'q' });
      ids.push(m.id);
      await seedPending(redis, m);
    }
    const req = new Request('http://localhost/api/queues/q/bulk', {
      method: 'POST',
      headers: { ...json, cookie: operator, accept: 'application/x-ndjson' },
      body: JSON.stringify({ action: 'delete', state: 'pending', ids: ids.slice(0, 2) }),
    });
    const res = await bulk(req, { params: Promise.resolve({ qname: 'q' }) });
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(await redis.exists('asynqlens:audit')).toBe(0);
    expect(await res.text()).toContain('"result"');
    const [rec] = (await redis.lrange('asynqlens:audit', 0, -1)).map((s) => JSON.parse(s));
    expect(rec).toMatchObject({ action: 'delete-selected', count: 2, code: null, target: { queue: 'q', state: 'pending', requested: 2 } });
  });

  it('counts a mutation its handler refused (4xx: nothing changed) as a refusal, not a record', async () => {
    const action = api.action.POST as Handler;
    await redis.sadd('asynq:queues', 'q');
    const res = await callRoute(action, '/api/queues/q/tasks/nope/run', { qname: 'q', taskId: 'nope', action: 'run' }, { method: 'POST', headers: { ...json, cookie: operator }, body: '{}' });
    expect(res.status).toBe(404);
    expect(await redis.exists('asynqlens:audit')).toBe(0);
    const [key] = await redis.keys('asynqlens:audit:{refusals}:*');
    const value = await redis.hget(key!, JSON.stringify(['alice', 'POST', '/api/queues/[qname]/tasks/[taskId]/[action]']));
    expect(JSON.parse(value!)).toMatchObject({ role: 'operator', count: 1, status: 404, code: res.body.error.code });
  });

  it('keeps the log capped at ASYNQLENS_AUDIT_MAX; GET /api/audit pages it newest first for any signed-in user', async () => {
    process.env.ASYNQLENS_AUDIT_MAX = '3';
    const pause = api.pause.POST as Handler;
    const list = api.audit.GET as Handler;
    await redis.sadd('asynq:queues', ...['a', 'b', 'c', 'd']);
    try {
      for (const q of ['a', 'b', 'c', 'd']) {
        expect((await callRoute(pause, `/api/queues/${q}/pause`, { qname: q }, { method: 'POST', headers: { ...json, cookie: operator }, body: '{}' })).status).toBe(200);
      }
    } finally {
      delete process.env.ASYNQLENS_AUDIT_MAX;
    }
    expect(await redis.llen('asynqlens:audit')).toBe(3);
    const page = await callRoute(list, '/api/audit?page=1&size=2', {}, { headers: { cookie: viewer } });
    expect(page.status).toBe(200);
    const dto = auditPageSchema.parse(page.body);
    expect(dto.total).toBe(3);
    expect(dto.records.map((r) => r.target.queue)).toEqual(['d', 'c']);
    expect(dto.records[0]).toMatchObject({ action: 'pause-queue', count: 1 });
    expect((await callRoute(list, '/api/audit')).status).toBe(401);
  });
});
