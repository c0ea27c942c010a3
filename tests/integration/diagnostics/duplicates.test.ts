/**
 * Duplicate scan on a real Redis: exact and near groups across states, sampling, bad records,
 * the SORT_RO and Lua read paths, and the job routes (start, poll, cancel, resolve).
 */
import { describe, expect, it } from 'vitest';
import { createDuplicateScan, keys as k, type TaskMessage } from '@/lib/asynq';
import { json, newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedActive, seedAggregating, seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import { callRoute } from '../../support/call-route';
import { useConsoleRoutes } from '../../support/console-routes';

const DB = 52;
const { redis, routes: r } = await useConsoleRoutes(DB);

const task = (queue: string, type: string, payload: unknown, over: Partial<TaskMessage> = {}) =>
  newTaskMessage({ type, queue, payload: typeof payload === 'string' ? Buffer.from(payload) : json(payload), ...over });
const now = () => Math.floor(Date.now() / 1000);

async function scan(queue: string, opts: Parameters<typeof createDuplicateScan>[2] = {}) {
  const s = createDuplicateScan(redis, queue, opts);
  await s.run();
  return s.report();
}

const path = (q: string, qs = '') => `/api/queues/${encodeURIComponent(q)}/duplicates${qs}`;

/** Polls the GET route until the scan is complete. */
async function scanRoute(q: string, qs = '') {
  for (let i = 0; i < 200; i++) {
    const res = await callRoute(r.duplicates.GET, path(q, qs), { qname: q });
    if (res.status !== 200 || res.body.complete) return res;
    await new Promise((ok) => setTimeout(ok, 20));
  }
  throw new Error('scan did not complete');
}

describe('createDuplicateScan', () => {
  it('groups exact duplicates across states, oldest first, and leaves active tasks out by default', async () => {
    const q = 'd1';
    const p = [task(q, 'email', { to: 'a' }), task(q, 'email', { to: 'a' })];
    for (const m of p) await seedPending(redis, m);
    const retry = task(q, 'email', { to: 'a' });
    await seedZset(redis, 'retry', retry, now() + 60);
    const archived = task(q, 'email', { to: 'a' });
    await seedZset(redis, 'archived', archived, now());
    const grouped = [task(q, 'email', { to: 'a' }, { groupKey: 'g1' }), task(q, 'email', { to: 'a' }, { groupKey: 'g2' })];
    for (const m of grouped) await seedAggregating(redis, m);
    await seedActive(redis, task(q, 'email', { to: 'a' }));
    await seedZset(redis, 'scheduled', task(q, 'email', { to: 'b' }), now() + 60);
    await seedZset(redis, 'completed', task(q, 'sms', { to: 'a' }), now() + 60);

    const report = await scan(q);
    expect(report).toMatchObject({ complete: true, total: 8, scanned: 8, skipped: 0, exactGroups: 1, nearGroups: 0, surplusTasks: 5 });
    expect(report.groups).toHaveLength(1);
    const [g] = report.groups;
    expect(g).toMatchObject({ kind: 'exact', taskType: 'email', count: 6, distinctPayloads: 1, payloadMd5: k.uniqueKey(q, 'email', json({ to: 'a' })).slice(-32) });
    expect(g!.tasks.slice(0, 2)).toEqual([{ id: p[0]!.id, state: 'pending' }, { id: p[1]!.id, state: 'pending' }]);
    expect(g!.tasks.map((t) => t.state).sort()).toEqual(['aggregating', 'aggregating', 'archived', 'pending', 'pending', 'retry']);

    const only = await scan(q, { states: ['pending', 'retry'] });
    expect(only).toMatchObject({ total: 3, exactGroups: 1 });
    expect(only.groups[0]!.count).toBe(3);
  });

  it('finds near duplicates and names the fields that vary, exact groups inside them counted', async () => {
    const q = 'd2';
    const stamps = ['2026-11-30T01:00:00Z', '2026-11-30T01:00:01Z', '2026-11-30T01:00:01Z'];
    for (const [i, ts] of stamps.entries()) await seedPending(redis, task(q, 'report', { user: 7, meta: { sentAt: ts, requestId: `r${i}` } }));
    await seedPending(redis, task(q, 'report', { user: 8, meta: { sentAt: stamps[0], requestId: 'r9' } }));
    await seedPending(redis, task(q, 'bin', '\u0000\u0001 not json'));
    await seedPending(redis, task(q, 'bin', '\u0000\u0001 not json'));
    const report = await scan(q);
    expect(report.groups.map((g) => [g.kind, g.taskType, g.count, g.distinctPayloads, g.varyingFields])).toEqual([
      ['near', 'report', 3, 3, ['meta.requestId', 'meta.sentAt']],
      ['exact', 'bin', 2, 1, []],
    ]);
  });

  it('keeps only `samples` IDs per group but counts every task', async () => {
    const q = 'd3';
    const p = redis.pipeline();
    for (let i = 0; i < 30; i++) {
      const m = task(q, 't', { same: true });
      p.hset(k.taskKey(q, m.id), 'msg', Buffer.from((await import('@/lib/asynq/codec')).encodeTaskMessage(m)), 'state', 'pending');
      p.lpush(k.pendingKey(q), m.id);
    }
    p.sadd(k.ALL_QUEUES, q);
    await p.exec();
    const report = await scan(q, { samples: 5 });
    expect(report.groups[0]).toMatchObject({ count: 30 });
    expect(report.groups[0]!.tasks).toHaveLength(5);
  });

  it('skips missing and undecodable records without failing', async () => {
    const q = 'd4';
    await seedPending(redis, task(q, 't', 'x'));
    await seedPending(redis, task(q, 't', 'x'));
    await redis.lpush(k.pendingKey(q), 'dangling-id');
    await redis.hset(k.taskKey(q, 'garbage'), 'msg', Buffer.from([0x0a, 0xff, 0x01]), 'state', 'pending');
    await redis.lpush(k.pendingKey(q), 'garbage');
    const report = await scan(q);
    expect(report).toMatchObject({ complete: true, scanned: 4, skipped: 2, exactGroups: 1 });
  });

  it('reads a queue whose name holds a `*` through the Lua fallback, in batches', async () => {
    const q = 'we*rd';
    for (let i = 0; i < 1200; i++) await seedPending(redis, task(q, 't', { i: i % 600 }));
    const report = await scan(q, { batchSize: 1000 });
    expect(report).toMatchObject({ complete: true, scanned: 1200, exactGroups: 600, surplusTasks: 600 });
  });

  it('answers queue_not_found for an unknown queue', async () => {
    await expect(scan('nope')).rejects.toMatchObject({ kind: 'queue_not_found' });
  });
});

describe('the duplicates routes', () => {
  it('starts a scan, reports progress until complete, and keeps the result', async () => {
    const q = 'web';
    for (let i = 0; i < 3; i++) await seedPending(redis, task(q, 'email', { to: 'a' }));
    await seedPending(redis, task(q, 'email', { to: 'b' }));
    const res = await scanRoute(q);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      queue: q, states: ['pending', 'scheduled', 'retry', 'archived', 'completed', 'aggregating'],
      complete: true, scanned: 4, total: 4, skipped: 0, exactGroups: 1, nearGroups: 0, surplusTasks: 2, nearCapped: false,
      startedAt: expect.stringMatching(/Z$/), finishedAt: expect.stringMatching(/Z$/),
    });
    const [g] = res.body.groups;
    expect(g).toEqual({
      kind: 'exact', id: expect.stringMatching(/^exact:email:[0-9a-f]{32}$/), taskType: 'email', count: 3,
      taskIds: g.tasks.map((t: { id: string }) => t.id), tasks: expect.any(Array), varyingFields: [],
      payloadMd5: expect.stringMatching(/^[0-9a-f]{32}$/), distinctPayloads: 1,
    });
    // The same parameters read the kept result: same start time.
    const again = await callRoute(r.duplicates.GET, path(q), { qname: q });
    expect(again.body.startedAt).toBe(res.body.startedAt);
  });

  it('cancels a scan (204, then 404) and validates its parameters', async () => {
    const q = 'web2';
    await seedPending(redis, task(q, 't', 'x'));
    await scanRoute(q, '?states=pending');
    expect((await callRoute(r.duplicates.DELETE, path(q, '?states=pending'), { qname: q }, { method: 'DELETE' })).status).toBe(204);
    const gone = await callRoute(r.duplicates.DELETE, path(q, '?states=pending'), { qname: q }, { method: 'DELETE' });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('scan_not_found');
    const bad = await callRoute(r.duplicates.GET, path(q, '?states=pending,bogus'), { qname: q });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('states');
    const unknown = await callRoute(r.duplicates.GET, path('missing'), { qname: 'missing' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('queue_not_found');
  });

  it('keeps one of each group and deletes the rest, then counts right', async () => {
    const q = 'fix';
    const dups = [task(q, 'email', { to: 'a' }), task(q, 'email', { to: 'a' }), task(q, 'email', { to: 'a' })];
    for (const m of dups) await seedPending(redis, m);
    const near = [task(q, 'rep', { ts: '2026-01-01T00:00:00Z' }), task(q, 'rep', { ts: '2026-01-01T00:00:05Z' })];
    await seedZset(redis, 'retry', near[0]!, now() + 60);
    await seedZset(redis, 'retry', near[1]!, now() + 61);
    const busy = task(q, 'email', { to: 'a' });
    await seedActive(redis, busy);
    const before = await scanRoute(q);
    const surplus = before.body.groups.flatMap((g: { taskIds: string[] }) => g.taskIds.slice(1));
    expect(surplus).toHaveLength(3);
    const res = await callRoute(r.resolve.POST, path(q, '/resolve'), { qname: q }, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ taskIds: [...surplus, busy.id, 'no-such-task'] }),
    });
    expect(res.status).toBe(200);
    expect(res.body.deleted).toBe(3);
    expect(res.body.failed.map((f: { id: string; error: { code: string } }) => [f.id, f.error.code]).sort()).toEqual(
      [[busy.id, 'failed_precondition'], ['no-such-task', 'task_not_found']].sort(),
    );
    expect(await redis.lrange(k.pendingKey(q), 0, -1)).toEqual([dups[0]!.id]);
    expect(await redis.zrange(k.retryKey(q), 0, -1)).toEqual([near[0]!.id]);
    const after = await scanRoute(q);
    expect(after.body).toMatchObject({ complete: true, exactGroups: 0, nearGroups: 0, groups: [] });
    const empty = await callRoute(r.resolve.POST, path(q, '/resolve'), { qname: q }, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ taskIds: [] }),
    });
    expect(empty.status).toBe(400);
  });

  it('stops a running scan when cancelled', async () => {
    const q = 'big';
    const codec = await import('@/lib/asynq/codec');
    for (let b = 0; b < 20; b++) {
      const p = redis.pipeline();
      for (let i = 0; i < 1000; i++) {
        const m = task(q, 't', { i: (b * 1000 + i) % 7 });
        p.hset(k.taskKey(q, m.id), 'msg', Buffer.from(codec.encodeTaskMessage(m)), 'state', 'pending').lpush(k.pendingKey(q), m.id);
      }
      await p.exec();
    }
    await redis.sadd(k.ALL_QUEUES, q);
    const first = await callRoute(r.duplicates.GET, path(q), { qname: q });
    expect(first.body).toMatchObject({ total: 20_000 });
    expect((await callRoute(r.duplicates.DELETE, path(q), { qname: q }, { method: 'DELETE' })).status).toBe(204);
    const fresh = await scanRoute(q);
    expect(fresh.body).toMatchObject({ complete: true, scanned: 20_000, exactGroups: 7 });
  });
});
