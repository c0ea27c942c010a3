/**
 * The audit log within its byte budget (ASYNQLENS_AUDIT_MAX_BYTES), in proxy mode so that the
 * principal's name is whatever a request says: every field cut with its length kept, a record
 * of at most 2 KiB, refusals counted per hour, principal and route apart from the record of
 * changes and never reading the refused body, and requests without an identity writing nothing.
 */
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditPageSchema, type AuditRecordDto } from '@/lib/contract/audit';
import { AUDITED_ROUTES } from '@/lib/server/audit/actions';
import { auditMax, writeAudit } from '@/lib/server/audit/log';
import { countRefusal } from '@/lib/server/audit/refusals';
import { configurationProblem } from '@/lib/server/config/startup-check';
import { callRoute, type Handler } from '../../support/call-route';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import { apiRoutes, asHandler, fill } from '../auth/support';
import { consoleRoutes } from '../../support/console-routes';

const DB = 117;
const SECRET = 'proxy-secret-for-the-audit-tests';
const LONG_OPERATOR = 'o'.repeat(3000);
const json = { 'content-type': 'application/json' };
const as = (user: string) => ({ ...json, 'x-forwarded-user': user, 'x-asynqlens-proxy-secret': SECRET });
let redis: Redis;
let pause: Handler, enqueue: Handler, bulk: Handler, action: Handler, list: Handler;

beforeAll(async () => {
  Object.assign(process.env, {
    REDIS_URL: testRedisUrl(DB),
    ASYNQLENS_AUTH: 'proxy',
    ASYNQLENS_AUDIT: 'on',
    ASYNQLENS_PROXY_USER_HEADER: 'X-Forwarded-User',
    ASYNQLENS_PROXY_OPERATORS: `alice, ${LONG_OPERATOR}`,
    ASYNQLENS_PROXY_SECRET: SECRET,
  });
  redis = await openTestRedis(DB);
  pause = (await consoleRoutes()).pause.POST;
  enqueue = (await consoleRoutes()).tasks.POST;
  bulk = (await consoleRoutes()).bulk.POST;
  action = (await consoleRoutes()).action.POST;
  list = (await consoleRoutes()).audit.GET;
});
beforeEach(async () => {
  await redis.flushdb();
  await redis.sadd('asynq:queues', 'q');
});
afterEach(() => {
  delete process.env.ASYNQLENS_AUDIT_MAX_BYTES;
  delete process.env.ASYNQLENS_AUDIT_MAX;
});
afterAll(async () => {
  await redis.quit();
});

const records = async () => (await redis.lrange('asynqlens:audit', 0, -1)).map((s) => JSON.parse(s) as AuditRecordDto);
const refusalKeys = () => redis.keys('asynqlens:audit:{refusals}:*');

/** MEMORY USAGE (every element, SAMPLES 0) of every key the console stores for its audit log. */
async function auditBytes(): Promise<number> {
  let total = 0;
  for (const key of await redis.keys('asynqlens:audit*')) total += Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
  return total;
}

describe('a record of a change', () => {
  it('has every long field cut to 200 characters, with its original length', async () => {
    const queue = 'q'.repeat(5000);
    await redis.sadd('asynq:queues', queue);
    expect((await callRoute(pause, `/api/queues/${queue}/pause`, { qname: queue }, { method: 'POST', headers: as(LONG_OPERATOR), body: '{}' })).status).toBe(200);
    const type = 't'.repeat(100_000);
    expect((await callRoute(enqueue, '/api/queues/q/tasks', { qname: 'q' }, { method: 'POST', headers: as('alice'), body: JSON.stringify({ type, payload: '{}' }) })).status).toBe(201);
    const [enq, paused] = await records();
    expect(paused!.user).toBe(`${'o'.repeat(199)}…`);
    expect(paused!.path).toHaveLength(200);
    expect(paused!.target.queue).toBe(`${'q'.repeat(199)}…`);
    expect(paused!.cut).toEqual({ user: 3000, path: 5000 + '/api/queues//pause'.length, 'target.queue': 5000 });
    expect(enq).toMatchObject({ user: 'alice', action: 'enqueue', target: { queue: 'q', type: `${'t'.repeat(199)}…` }, cut: { 'target.type': 100_000 }, count: 1 });
    for (const s of await redis.lrange('asynqlens:audit', 0, -1)) expect(Buffer.byteLength(s)).toBeLessThanOrEqual(2048);
  });

  it('stays within 2 KiB of JSON whatever its strings hold (escapes, emoji, lone surrogates)', async () => {
    const nasty = ['\u0000\u001f"\\'.repeat(300_000), '😀'.repeat(500_000), '\ud800x'.repeat(500_000), 'é'.repeat(1_000_000)];
    const keys = ['queue', 'taskId', 'state', 'states', 'group', 'type', 'taskType', 'filter', 'key', 'force', 'x', 'y', 'z', 'w', 'v', 'u', 'extra'];
    for (let i = 0; i < nasty.length; i++) {
      const s = nasty[i]!;
      await writeAudit({
        at: new Date().toISOString(),
        user: s,
        role: 'operator',
        action: s,
        method: s,
        path: s,
        target: Object.fromEntries(keys.map((k) => [k, s])),
        count: 1,
        status: 500,
        code: s,
      });
    }
    const stored = await redis.lrange('asynqlens:audit', 0, -1);
    expect(stored).toHaveLength(nasty.length);
    for (const line of stored) {
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(2048);
      const rec = JSON.parse(line) as AuditRecordDto;
      expect(rec.user.endsWith('…')).toBe(true);
      expect(Object.keys(rec.target)).toHaveLength(16);
      expect(rec.cut!.user).toBeGreaterThanOrEqual(1_000_000);
      expect(rec.cut!['target.queue']).toBeGreaterThanOrEqual(1_000_000);
    }
  });
});

describe('refusals', () => {
  it('are counted per principal and route, never recorded as changes, and the refused body is not read', async () => {
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const endless = () =>
      new ReadableStream<Uint8Array>({
        pull(c) {
          pulled += chunk.byteLength;
          if (pulled > 16 * 1024 * 1024) c.close();
          else c.enqueue(chunk);
        },
      });
    for (let i = 0; i < 3; i++) {
      const req = new Request('http://localhost/api/queues/q/bulk', { method: 'POST', headers: as('victor'), body: endless(), duplex: 'half' } as RequestInit);
      expect((await bulk(req, { params: Promise.resolve({ qname: 'q' }) })).status).toBe(403);
    }
    // A ReadableStream fills its queue once when made (one chunk each); nothing more is read.
    expect(pulled).toBeLessThanOrEqual(3 * chunk.byteLength);
    expect((await callRoute(pause, '/api/queues/q/pause', { qname: 'q' }, { method: 'POST', headers: as('victor'), body: '{}' })).status).toBe(403);
    // An operator's request refused by validation (400) and by its handler (404) is a refusal too.
    expect((await callRoute(pause, '/api/queues/q/pause', { qname: 'q' }, { method: 'POST', headers: as('alice'), body: '{"x":1}' })).status).toBe(400);
    const missing = await callRoute(action, '/api/queues/q/tasks/nope/run', { qname: 'q', taskId: 'nope', action: 'run' }, { method: 'POST', headers: as('alice'), body: '{}' });
    expect(missing.status).toBe(404);

    expect(await redis.exists('asynqlens:audit')).toBe(0);
    const keys = await refusalKeys();
    expect(keys).toHaveLength(1);
    const ttl = await redis.ttl(keys[0]!);
    expect(ttl).toBeGreaterThan(23 * 3600 - 60);
    expect(ttl).toBeLessThanOrEqual(24 * 3600);

    const page = await callRoute(list, '/api/audit', {}, { headers: as('victor') });
    expect(page.status).toBe(200);
    const dto = auditPageSchema.parse(page.body);
    expect(dto.records).toEqual([]);
    const hour = new Date(Date.now() - (Date.now() % 3_600_000)).toISOString();
    const row = (user: string, route: string) => dto.refusals.find((r) => r.user === user && r.route === route);
    expect(row('victor', '/api/queues/[qname]/bulk')).toMatchObject({ window: hour, role: 'viewer', method: 'POST', count: 3, status: 403, code: 'forbidden_role', overflow: false });
    expect(row('victor', '/api/queues/[qname]/pause')).toMatchObject({ count: 1, code: 'forbidden_role' });
    expect(row('alice', '/api/queues/[qname]/pause')).toMatchObject({ role: 'operator', count: 1, status: 400, code: 'invalid_argument' });
    expect(row('alice', '/api/queues/[qname]/tasks/[taskId]/[action]')).toMatchObject({ count: 1, status: 404, code: missing.body.error.code });
    expect(dto.refusals.map((r) => r.count)).toEqual([3, 1, 1, 1]);
  });

  it('hold a bounded number of principals per hour; the rest are counted in its overflow entry', async () => {
    process.env.ASYNQLENS_AUDIT_MAX_BYTES = String(1024 * 1024);
    for (let i = 0; i < 50; i++) {
      expect((await callRoute(pause, '/api/queues/q/pause', { qname: 'q' }, { method: 'POST', headers: as(`viewer-${i}-${'v'.repeat(10_000)}`), body: '{}' })).status).toBe(403);
    }
    const [key] = await refusalKeys();
    expect(await redis.hlen(key!)).toBe(4);
    const dto = auditPageSchema.parse((await callRoute(list, '/api/audit', {}, { headers: as('alice') })).body);
    expect(dto.refusals).toHaveLength(4);
    expect(dto.refusals.reduce((n, r) => n + r.count, 0)).toBe(50);
    const overflow = dto.refusals.find((r) => r.overflow)!;
    expect(overflow).toMatchObject({ count: 47, route: '/api/queues/[qname]/pause', code: 'forbidden_role' });
    expect(overflow.user).toBe(`viewer-49-${'v'.repeat(53)}…`);
    for (const r of dto.refusals) expect(r.user.length).toBeLessThanOrEqual(64);
  });

  it('never push out an operator record: 10,100 refusals by 500 principals after 20 changes', async () => {
    for (let i = 0; i < 20; i++) {
      const verb = i % 2 === 0 ? 'pause' : 'resume';
      const h = verb === 'pause' ? pause : ((await consoleRoutes()).resume.POST as Handler);
      expect((await callRoute(h, `/api/queues/q/${verb}`, { qname: 'q' }, { method: 'POST', headers: as('alice'), body: '{}' })).status).toBe(200);
    }
    for (let i = 0; i < 10_100; i++) {
      const res = await callRoute(bulk, '/api/queues/q/bulk', { qname: 'q' }, { method: 'POST', headers: as(`mallory-${i % 500}`), body: '{"action":"delete","state":"pending"}' });
      expect(res.status).toBe(403);
    }
    const kept = await records();
    expect(kept).toHaveLength(20);
    expect(kept.every((r) => r.user === 'alice' && r.status === 200)).toBe(true);
    const dto = auditPageSchema.parse((await callRoute(list, '/api/audit', {}, { headers: as('alice') })).body);
    expect(dto.total).toBe(20);
    expect(dto.refusals.reduce((n, r) => n + r.count, 0)).toBe(10_100);
  }, 300_000);
});

describe('the byte budget', () => {
  it('bounds every audit key in Redis: a full list of the largest records and 24 full hours of refusals', async () => {
    process.env.ASYNQLENS_AUDIT_MAX_BYTES = String(1024 * 1024);
    const cap = auditMax();
    expect(cap).toBe(Math.floor((1024 * 1024 - 131_072) / 2112));
    const big = '\u0000'.repeat(10_000);
    for (let i = 0; i < cap + 100; i++) {
      await writeAudit({
        at: new Date().toISOString(),
        user: `u${i}${big}`,
        role: 'operator',
        action: big,
        method: 'POST',
        path: big,
        target: { queue: big, taskId: big, state: big, type: big, group: big, filter: big, key: big },
        count: i,
        status: 200,
        code: null,
      });
    }
    expect(await redis.llen('asynqlens:audit')).toBe(cap);
    const now = Date.now();
    for (let h = 0; h < 24; h++) {
      for (let i = 0; i < 20; i++) {
        await countRefusal({ user: `${i}-${'é'.repeat(1000)}`, role: 'viewer', method: 'DELETE', route: '/api/queues/[qname]/tasks/[taskId]', status: 403, code: `forbidden_role${'x'.repeat(500)}` }, now - h * 3_600_000);
      }
    }
    expect(await refusalKeys()).toHaveLength(24);
    const bytes = await auditBytes();
    console.log(`[audit budget] 1 MiB budget: ${cap} records of ≤ 2 KiB + 24 hours × 4 refusal entries hold ${bytes} bytes in Redis`);
    expect(bytes).toBeLessThanOrEqual(1024 * 1024);
  }, 120_000);

  it('is validated like ASYNQLENS_AUDIT_MAX, and the smaller record cap wins', () => {
    expect(auditMax()).toBe(6950);
    process.env.ASYNQLENS_AUDIT_MAX = '3';
    expect(auditMax()).toBe(3);
    process.env.ASYNQLENS_AUDIT_MAX = '10000000';
    process.env.ASYNQLENS_AUDIT_MAX_BYTES = String(64 * 1024 * 1024);
    expect(auditMax()).toBe(27_803);
    for (const bad of ['16MiB', '1000', '-1', '1.5', String(2 * 1024 * 1024 * 1024)]) {
      process.env.ASYNQLENS_AUDIT_MAX_BYTES = bad;
      expect(configurationProblem()).toBe(`ASYNQLENS_AUDIT_MAX_BYTES must be a whole number from 1048576 to 1073741824 (got ${JSON.stringify(bad)})`);
    }
  });
});

describe('a request without an identity', () => {
  it('writes nothing to Redis on any mutation route, whatever its body', async () => {
    const before = await redis.keys('*');
    const body = JSON.stringify({ type: 'x'.repeat(1024 * 1024) });
    const routes = (await apiRoutes()).flatMap((r) =>
      (['POST', 'PUT', 'PATCH', 'DELETE'] as const).filter((m) => AUDITED_ROUTES.includes(`${m} ${r.pattern}`)).map((m) => ({ m, pattern: r.pattern, h: asHandler(r.module[m]) })),
    );
    expect(routes).toHaveLength(AUDITED_ROUTES.length);
    for (const { m, pattern, h } of routes) {
      const { path, params } = fill(pattern);
      for (const headers of [json, { ...json, 'x-forwarded-user': 'alice' }, { ...json, 'x-asynqlens-proxy-secret': SECRET }]) {
        const res = await callRoute(h, path, params, { method: m, headers, body: m === 'DELETE' ? undefined : body });
        expect(res.status, `${m} ${pattern}`).toBe(401);
      }
    }
    expect(await redis.keys('*')).toEqual(before);
  });
});
