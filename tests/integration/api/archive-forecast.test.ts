/**
 * GET /api/queues/{q}/archive-forecast, and the count of archived tasks asynq's limit trimmed in
 * the bulk answer and its audit record, both equal to the forecast made just before.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keys as k } from '@/lib/asynq';
import type { AuditRecordDto } from '@/lib/contract/audit';
import { archiveCutoff } from '@/lib/asynq/mutations/archive-limits';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedPending } from '@/lib/asynq/testutil/seed';
import { callRoute } from '../../support/call-route';
import { consoleRoutes } from '../../support/console-routes';
import { freshConsole } from '../../support/fresh-console';
import { testRedisUrl, useTestRedis } from '../../support/test-redis';

const DB = 126;
Object.assign(process.env, { REDIS_URL: testRedisUrl(DB), ASYNQLENS_AUDIT: 'on' });
const redis = await useTestRedis(DB);
let routes: Awaited<ReturnType<typeof consoleRoutes>>;
beforeAll(async () => {
  routes = await consoleRoutes();
});
beforeEach(() => redis.del('asynqlens:audit'));

async function seed(qname: string, archived: number, old: number, pending: number) {
  const now = Math.floor(Date.now() / 1000);
  const p = redis.pipeline().sadd(k.ALL_QUEUES, qname);
  for (let i = 0; i < archived; i++) p.zadd(k.archivedKey(qname), now - 60, `a${i}`);
  for (let i = 0; i < old; i++) p.zadd(k.archivedKey(qname), archiveCutoff(new Date()) - 3600, `old${i}`);
  await p.exec();
  for (let i = 0; i < pending; i++) await seedPending(redis, newTaskMessage({ type: 't', queue: qname }));
}

const forecast = (q: string, qs: string) =>
  callRoute(routes.archiveForecast.GET, `/api/queues/${encodeURIComponent(q)}/archive-forecast?${qs}`, { qname: q });
const post = { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://localhost' } };
const records = async () => (await redis.lrange('asynqlens:audit', 0, -1)).map((s) => JSON.parse(s) as AuditRecordDto);

describe('GET /api/queues/{q}/archive-forecast', () => {
  it('says how many archived tasks go by age and by size', async () => {
    await seed('fq', 9_985, 5, 0);
    const { status, body } = await forecast('fq', 'adding=20');
    expect(status).toBe(200);
    expect(body).toEqual({
      queue: 'fq', adding: 20, archived: 9_990, byAge: 5, bySize: 6, ofAdded: 0, deleted: 11,
      keep: 9_999, maxAgeDays: 90, cutoff: expect.any(Number),
    });
  });

  it('answers 0 deleted under the limit', async () => {
    await seed('small', 10, 0, 0);
    expect((await forecast('small', 'adding=100')).body).toMatchObject({ archived: 10, deleted: 0 });
  });

  it.each([['adding=-1'], ['adding=1.5'], ['adding=x'], ['']])('refuses %j with 400 naming adding', async (qs) => {
    await seed('fq', 0, 0, 0);
    const { status, body } = await forecast('fq', qs);
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain('adding');
  });

  it('answers 404 for an unknown queue', async () => {
    expect((await forecast('nope', 'adding=1')).status).toBe(404);
  });
});

describe('archive past the limit', () => {
  it('reports the trimmed count the forecast gave, in the answer and the audit record', async () => {
    await seed('bq', 9_990, 3, 20);
    const before = (await forecast('bq', 'adding=20')).body as { deleted: number };
    expect(before.deleted).toBe(3 + 11);
    const { status, body } = await callRoute(routes.bulk.POST, '/api/queues/bq/bulk', { qname: 'bq' }, {
      ...post, body: JSON.stringify({ action: 'archive', state: 'pending' }),
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ succeeded: 20, trimmed: before.deleted });
    expect(await redis.zcard(k.archivedKey('bq'))).toBe(9_999);
    const [rec] = await records();
    expect(rec).toMatchObject({ action: 'archive-all', count: 20, trimmed: before.deleted, status: 200 });
  });

  it('records trimmed from a streamed answer too, and 0 when nothing was trimmed', async () => {
    await seed('sq', 0, 0, 2);
    const res = await routes.bulk.POST(
      new Request('http://localhost/api/queues/sq/bulk', { ...post, headers: { ...post.headers, accept: 'application/x-ndjson' }, body: JSON.stringify({ action: 'archive', state: 'pending' }) }),
      { params: Promise.resolve({ qname: 'sq' }) },
    );
    const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as { result?: { trimmed: number } });
    expect(lines.at(-1)?.result?.trimmed).toBe(0);
    const [rec] = await records();
    expect(rec).toMatchObject({ count: 2, trimmed: 0 });
  });

  it('leaves trimmed out of records of other changes', async () => {
    await seed('pq', 0, 0, 0);
    const pause = (await consoleRoutes()).pause.POST;
    expect((await callRoute(pause, '/api/queues/pq/pause', { qname: 'pq' }, post)).status).toBe(200);
    const [rec] = await records();
    expect(rec).toBeDefined();
    expect(rec).not.toHaveProperty('trimmed');
  });
});

describe('search act preview', () => {
  it('counts the matches per queue, which the archive confirmation forecasts one by one', async () => {
    await seed('sa', 0, 0, 3);
    await seed('sb', 0, 0, 2);
    const act = (await consoleRoutes()).act.POST;
    const { status, body } = await callRoute(act, '/api/tasks/search/act', {}, {
      ...post, body: JSON.stringify({ filter: { queue: ['sa', 'sb'], state: ['pending'] }, action: 'archive', preview: true }),
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ preview: true, count: 5, byQueue: { sa: 3, sb: 2 } });
    expect(await redis.llen(k.pendingKey('sa'))).toBe(3);
  });
});

describe('ASYNQLENS_SERVER_TZ: the 90 days counted in the servers’ zone', () => {
  // The zone's offset cancels out: only a summer-time change within the 90 days moves the
  // cutoff, so the zone taken is one with such a change in the window ending today.
  const ZONES = ['Europe/Paris', 'America/New_York', 'Australia/Sydney', 'America/Santiago', 'Africa/Casablanca', 'Antarctica/Troll'];
  const now = new Date();
  const zone = ZONES.find((z) => archiveCutoff(now, z) !== archiveCutoff(now)) ?? 'Europe/Paris';

  it(`the forecast's cutoff and an archive's trimming follow it (${zone})`, async () => {
    const fresh = await freshConsole({ REDIS_URL: testRedisUrl(DB), ASYNQLENS_SERVER_TZ: zone });
    await seed('tz', 0, 0, 1);
    const before = Math.floor(Date.now() / 1000);
    const { status, body } = await callRoute(fresh.archiveForecast.GET, '/api/queues/tz/archive-forecast?adding=1', { qname: 'tz' });
    expect(status).toBe(200);
    const cutoffs = [archiveCutoff(new Date(before * 1000), zone), archiveCutoff(new Date(), zone)];
    expect(cutoffs, 'the forecast cutoff is counted in the zone').toContain(body.cutoff);
    // An archived task scored between the UTC cutoff and the zone's: kept or trimmed by the zone's rule.
    const utc = archiveCutoff(new Date());
    const inZone = archiveCutoff(new Date(), zone);
    if (utc !== inZone) {
      const between = Math.min(utc, inZone) + 1800;
      await redis.zadd(k.archivedKey('tz'), between, 'between');
      const [id] = await redis.lrange(k.pendingKey('tz'), 0, 0);
      const res = await callRoute(fresh.action.POST, `/api/queues/tz/tasks/${id}/archive`, { qname: 'tz', taskId: id!, action: 'archive' }, { ...post, body: '{}' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const kept = (await redis.zscore(k.archivedKey('tz'), 'between')) !== null;
      expect(kept, `a task archived at ${between}: ${zone} cutoff ${inZone}, UTC ${utc}`).toBe(between > inZone);
    }
  });
});
