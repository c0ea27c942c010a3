/**
 * The figure the audit log's byte budget is judged by: a viewer sends AUDIT_FLOOD_N (default
 * 10,000) refused mutation requests with 1 MB bodies after an operator made 50 changes. Reports
 * the memory Redis holds for the console's audit keys (MEMORY USAGE … SAMPLES 0 of every
 * `asynqlens:audit*` key in this test's database: INFO's used_memory would count the other test
 * files' databases too) and how many operator records are kept; asserts both stay within bounds.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { callRoute, type Handler } from '../../support/call-route';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import { SECRET, sessionCookie, usersEnv } from '../auth/support';
import { consoleRoutes } from '../../support/console-routes';

const DB = 118;
const N = Number(process.env.AUDIT_FLOOD_N ?? 10_000);
const json = { 'content-type': 'application/json' };
let redis: Redis;

beforeAll(async () => {
  process.env.REDIS_URL = testRedisUrl(DB);
  process.env.ASYNQLENS_AUTH = 'login';
  process.env.ASYNQLENS_AUDIT = 'on';
  process.env.ASYNQLENS_SESSION_SECRET = SECRET;
  process.env.ASYNQLENS_USERS = await usersEnv([['alice', 'operator'], ['victor', 'viewer']]);
  redis = await openTestRedis(DB);
});
afterAll(async () => {
  await redis.flushdb();
  await redis.quit();
});

async function auditBytes(): Promise<number> {
  let total = 0;
  for await (const keys of redis.scanStream({ match: 'asynqlens:audit*', count: 1000 })) {
    for (const key of keys as string[]) total += Number((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
  }
  return total;
}

it(`keeps every operator record and a bounded store through ${N} refused 1 MB requests`, async () => {
  const pause = (await consoleRoutes()).pause.POST as Handler;
  const resume = (await consoleRoutes()).resume.POST as Handler;
  const bulk = (await consoleRoutes()).bulk.POST as Handler;
  await redis.sadd('asynq:queues', 'q');
  const operator = await sessionCookie('alice', 'operator');
  for (let i = 0; i < 50; i++) {
    const [h, verb] = i % 2 === 0 ? [pause, 'pause'] : [resume, 'resume'];
    const res = await callRoute(h, `/api/queues/q/${verb}`, { qname: 'q' }, { method: 'POST', headers: { ...json, cookie: operator }, body: '{}' });
    expect(res.status).toBe(200);
  }
  const before = await auditBytes();
  const viewer = await sessionCookie('victor', 'viewer');
  const body = JSON.stringify({ action: 'archive', state: 'pending', type: 'x'.repeat(1024 * 1024) });
  const started = Date.now();
  for (let i = 0; i < N; i++) {
    const res = await callRoute(bulk, '/api/queues/q/bulk', { qname: 'q' }, { method: 'POST', headers: { ...json, cookie: viewer }, body });
    expect(res.status).toBe(403);
  }
  const after = await auditBytes();
  const records = (await redis.lrange('asynqlens:audit', 0, -1)).map((s) => JSON.parse(s) as { user: string });
  const kept = records.filter((r) => r.user === 'alice').length;
  console.log(
    `[audit flood] ${N} refused 1 MB requests in ${((Date.now() - started) / 1000).toFixed(1)} s: audit keys ${before} → ${after} bytes ` +
      `(+${after - before}); operator records kept ${kept}/50; list length ${records.length}`,
  );
  expect(kept).toBe(50);
  expect(after - before).toBeLessThan(64 * 1024);
}, 600_000);
