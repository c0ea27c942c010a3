/**
 * GET /api/snapshot: one build per tick for every viewer (the same bytes and ETag), a 304 with
 * no body for a viewer that holds them, a fresh build after a mutation, and a bounded answer
 * however many queues there are (a page of the table, the sidebar's queues needing attention).
 */
import { describe, expect, it } from 'vitest';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedPending } from '@/lib/asynq/testutil/seed';
import { callRoute } from '../../support/call-route';
import { useConsoleRoutes } from '../../support/console-routes';
import { countCommands } from '../../support/command-counter';
import { testRedisUrl } from '../../support/test-redis';

const DB = 101;
const { redis, routes } = await useConsoleRoutes(DB, { env: { ASYNQLENS_SNAPSHOT_MS: '60000' }, flushEach: false });

const JSON_POST = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' };

describe('the live snapshot', () => {
  it('answers an unchanged view with a bodiless 304, and a changed one with new bytes and ETag', async () => {
    await seedPending(redis, newTaskMessage({ type: 't', queue: 'q' }));
    const { snapshot, pause } = routes;
    const first = await callRoute(snapshot.GET, '/api/snapshot');
    expect(first.status).toBe(200);
    expect(first.body.totals).toMatchObject({ queues: 1, pending: 1, paused: 0 });
    expect(first.body.sidebar).toEqual({ queues: [{ queue: 'q', size: 1, paused: false, failing: false }], attentionOnly: false });
    expect(first.body.table).toBeNull();
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);

    const again = await callRoute(snapshot.GET, '/api/snapshot', {}, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.headers.get('etag')).toBe(etag);

    await callRoute(pause.POST, '/api/x', { qname: 'q' }, JSON_POST); // a mutation clears the tick
    const changed = await callRoute(snapshot.GET, '/api/snapshot', {}, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.body.totals.paused).toBe(1);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('builds a tick once for 20 viewers: one queue read, the same bytes for each', async () => {
    const { snapshot, resume } = routes;
    await callRoute(resume.POST, '/api/x', { qname: 'q' }, JSON_POST);
    const { result, commands } = await countCommands(testRedisUrl(DB), DB, () =>
      Promise.all(Array.from({ length: 20 }, () => callRoute(snapshot.GET, '/api/snapshot?table=1'))),
    );
    expect(commands).toEqual(['sscan', 'evalsha_ro']);
    expect(new Set(result.map((r) => r.bytes.toString('utf8'))).size).toBe(1);
    expect(new Set(result.map((r) => r.headers.get('etag'))).size).toBe(1);
  });

  it('sends one page of the table and only the queues needing attention past 30 queues', async () => {
    const { snapshot, pause } = routes;
    for (let i = 1; i <= 250; i++) await seedPending(redis, newTaskMessage({ type: 't', queue: `m-${String(i).padStart(3, '0')}` }));
    await callRoute(pause.POST, '/api/x', { qname: 'm-007' }, JSON_POST);

    const page3 = await callRoute(snapshot.GET, '/api/snapshot?table=1&page=3');
    expect(page3.body.totals.queues).toBe(251);
    expect(page3.body.table).toMatchObject({ page: 3, pageSize: 100, matching: 251, q: '' });
    expect(page3.body.table.rows.map((r: { queue: string }) => r.queue)).toEqual([
      ...Array.from({ length: 50 }, (_, i) => `m-${String(i + 201).padStart(3, '0')}`),
      'q',
    ]);
    expect(page3.body.sidebar).toEqual({ queues: [{ queue: 'm-007', size: 1, paused: true, failing: false }], attentionOnly: true });

    const filtered = await callRoute(snapshot.GET, '/api/snapshot?table=1&q=M-2');
    expect(filtered.body.table.matching).toBe(51); // m-200 … m-250
    expect(filtered.body.table.rows[0].queue).toBe('m-200');

    const past = await callRoute(snapshot.GET, '/api/snapshot?table=1&page=99');
    expect(past.body.table.page).toBe(3);
  });

  it('refuses a page below 1', async () => {
    const bad = await callRoute(routes.snapshot.GET, '/api/snapshot?table=1&page=0');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('page');
  });

  it('refuses a filter over 200 characters and an unknown table flag, naming the field', async () => {
    for (const [qs, field] of [[`?table=1&q=${'x'.repeat(201)}`, 'q'], ['?table=yes', 'table']]) {
      const res = await callRoute(routes.snapshot.GET, `/api/snapshot${qs}`);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(field);
    }
  });
});
