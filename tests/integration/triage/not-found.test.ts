/**
 * GET /api/handler-not-found and GET /api/failures over seeded Redis states: exact groups and
 * counts, waiting tasks, listening servers, signatures, the queue filter, partial answers, and
 * the not-found archive a real (TypeScript) worker writes.
 */
import { describe, expect, it } from 'vitest';
import { enqueueTask, ServeMux } from '@/lib/asynq';
import * as k from '@/lib/asynq/keys';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import { forgetTriageScans } from '@/lib/server/jobs/triage-scans';
import { consoleRoutes } from '../../support/console-routes';
import { startTestServer } from '../worker/helpers';
import { get, notFoundError, nowSec, useTriageRedis, seedFailed, seedServer } from './helpers';

const DB = 70;
const routes = await consoleRoutes();
const redis = await useTriageRedis(DB);

const iso = (s: number) => new Date(s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

async function seedIncident() {
  const t0 = nowSec() - 86_400;
  const nfNew = notFoundError('report:new');
  const ids: Record<string, string[]> = { newEmails: [], newBilling: [] };
  for (const [i, retried] of [25, 25, 25].entries()) {
    ids.newEmails!.push((await seedFailed(redis, { queue: 'emails', type: 'report:new', state: 'archived', error: nfNew, retried, lastFailedAt: t0 + i * 60 })).id);
  }
  for (const [i, retried] of [1, 3].entries()) {
    ids.newEmails!.push((await seedFailed(redis, { queue: 'emails', type: 'report:new', state: 'retry', error: nfNew, retried, lastFailedAt: t0 + 1000 + i })).id);
  }
  // Same type, another error: not a not-found failure.
  await seedFailed(redis, { queue: 'emails', type: 'report:new', state: 'archived', error: 'boom', lastFailedAt: t0 - 5000 });
  // The error names another type than the task's own: not this task's not-found failure.
  await seedFailed(redis, { queue: 'emails', type: 'report:x', state: 'archived', error: nfNew, lastFailedAt: t0 });
  await seedFailed(redis, { queue: 'emails', type: 'report:old', state: 'archived', error: notFoundError('report:old'), retried: 25, lastFailedAt: t0 + 7 });
  ids.newBilling!.push((await seedFailed(redis, { queue: 'billing', type: 'report:new', state: 'archived', error: nfNew, retried: 0, lastFailedAt: t0 + 3 })).id);
  for (let i = 0; i < 4; i++) await seedPending(redis, newTaskMessage({ type: 'report:new', queue: 'emails' }));
  await seedPending(redis, newTaskMessage({ type: 'other', queue: 'emails' }));
  for (let i = 0; i < 2; i++) await seedZset(redis, 'scheduled', newTaskMessage({ type: 'report:new', queue: 'emails' }), nowSec() + 600);
  // A queue with waiting tasks of the type but no not-found failures: not a group.
  for (let i = 0; i < 5; i++) await seedPending(redis, newTaskMessage({ type: 'report:new', queue: 'quiet' }));
  await seedServer(redis, 'srv-a', { emails: 2, billing: 1 }, 'host-a', 1);
  await seedServer(redis, 'srv-b', { quiet: 1 }, 'host-b', 2);
  // An expired heartbeat: not a live server.
  const dead = k.serverInfoKey('host-c', 3, 'srv-c');
  await redis.set(dead, 'x');
  await redis.zadd(k.ALL_SERVERS, nowSec() - 100, dead);
  return { t0, ids };
}

describe('GET /api/handler-not-found', () => {
  it('groups not-found failures by queue and type with counts, times, waiting tasks and listening servers', async () => {
    const { t0, ids } = await seedIncident();
    const r = await get(routes.notFound.GET, '/api/handler-not-found');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ complete: true, phase: 'done', skipped: 0, queues: ['billing', 'emails', 'quiet'] });
    expect(r.body.scanned).toBe(r.body.total);
    const [first, second, third, ...rest] = r.body.groups;
    expect(rest).toEqual([]);
    expect(first).toMatchObject({
      queue: 'emails', taskType: 'report:new', archived: 3, retry: 2, pending: 4, scheduled: 2, retriesSpent: 79,
      firstFailedAt: iso(t0), lastFailedAt: iso(t0 + 1001), servers: ['srv-a'],
      listeners: [{ id: 'srv-a', host: 'host-a', pid: 1, status: 'active' }],
      message: 'handler not found for task "report:new"',
    });
    expect([...first.sampleTaskIds].sort()).toEqual([...ids.newEmails!].sort());
    expect(first.explanation).toBe('No worker registered a handler for "report:new" when these ran — usually clients deployed before workers. Deploy a worker with a handler for it, then re-run these tasks.');
    expect(second).toMatchObject({ queue: 'billing', taskType: 'report:new', archived: 1, retry: 0, pending: 0, scheduled: 0, retriesSpent: 0, sampleTaskIds: ids.newBilling, servers: ['srv-a'] });
    expect(third).toMatchObject({ queue: 'emails', taskType: 'report:old', archived: 1, firstFailedAt: iso(t0 + 7), lastFailedAt: iso(t0 + 7) });
  });

  it('keeps 10 sample IDs, filters by queue and answers 404 for an unknown queue', async () => {
    for (let i = 0; i < 12; i++) await seedFailed(redis, { queue: 'a', type: 't', state: 'archived', error: notFoundError('t') });
    await seedFailed(redis, { queue: 'b', type: 't', state: 'archived', error: notFoundError('t') });
    const r = await get(routes.notFound.GET, '/api/handler-not-found?queue=a');
    expect(r.body.queues).toEqual(['a']);
    expect(r.body.groups).toHaveLength(1);
    expect(r.body.groups[0]).toMatchObject({ archived: 12, servers: [] });
    expect(r.body.groups[0].sampleTaskIds).toHaveLength(10);
    const missing = await get(routes.notFound.GET, '/api/handler-not-found?queue=nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'queue_not_found', message: 'queue "nope" does not exist' });
    expect((await get(routes.notFound.GET, '/api/handler-not-found?wait=-1')).status).toBe(400);
  });

  it('answers complete: false with progress when asked not to wait, and finishes the same scan on later requests', async () => {
    for (let i = 0; i < 3000; i++) await seedFailed(redis, { queue: 'big', type: 'job', state: 'archived', error: notFoundError('job') });
    const first = await get(routes.notFound.GET, '/api/handler-not-found?wait=0');
    expect(first.body).toMatchObject({ complete: false, total: 3000, finishedAt: null });
    const again = await get(routes.notFound.GET, '/api/handler-not-found?wait=5000');
    expect(again.body).toMatchObject({ complete: true, scanned: 3000, startedAt: first.body.startedAt });
    expect(again.body.groups[0].archived).toBe(3000);
  });

  it('reuses a finished scan for a while: a task failing meanwhile shows once the scans are forgotten', async () => {
    await seedFailed(redis, { queue: 'q', type: 't', state: 'archived', error: notFoundError('t') });
    expect((await get(routes.notFound.GET, '/api/handler-not-found')).body.groups[0].archived).toBe(1);
    await seedFailed(redis, { queue: 'q', type: 't', state: 'archived', error: notFoundError('t') });
    expect((await get(routes.notFound.GET, '/api/handler-not-found')).body.groups[0].archived).toBe(1);
    forgetTriageScans();
    expect((await get(routes.notFound.GET, '/api/handler-not-found')).body.groups[0].archived).toBe(2);
  });

  it('lists a missing or undecodable msg as skipped, never failing the scan', async () => {
    await seedFailed(redis, { queue: 'q', type: 't', state: 'archived', error: notFoundError('t') });
    await redis.zadd(k.archivedKey('q'), 1, 'ghost');
    await redis.hset(k.taskKey('q', 'bad'), 'msg', Buffer.from([0xff, 0xff, 0xff]), 'state', 'retry');
    await redis.zadd(k.retryKey('q'), 1, 'bad');
    const r = await get(routes.notFound.GET, '/api/handler-not-found');
    expect(r.body).toMatchObject({ complete: true, skipped: 2, total: 3, scanned: 3 });
    expect(r.body.groups[0].archived).toBe(1);
  });

  it('groups the archive a real worker writes when its mux lacks the type', async () => {
    const mux = new ServeMux().handle('ok:', () => {});
    const { server } = await startTestServer(redis, mux, { queues: { work: 1 } });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await enqueueTask(redis, { type: 'report:new', payload: null }, { queue: 'work', maxRetry: 0 }, new Date())).id);
      await enqueueTask(redis, { type: 'ok:fine', payload: null }, { queue: 'work' }, new Date());
      const end = Date.now() + 10_000;
      while ((await redis.zcard(k.archivedKey('work'))) < 3 && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
      const r = await get(routes.notFound.GET, '/api/handler-not-found');
      expect(r.body.groups).toHaveLength(1);
      expect(r.body.groups[0]).toMatchObject({ queue: 'work', taskType: 'report:new', archived: 3, retry: 0, retriesSpent: 0, servers: [server.id.serverId] });
      expect([...r.body.groups[0].sampleTaskIds].sort()).toEqual(ids.sort());
    } finally {
      await server.shutdown();
    }
  });
});

describe('GET /api/failures', () => {
  it('groups every failure by signature, the not-found groups first with their explanation', async () => {
    await seedIncident();
    const t = nowSec();
    await seedFailed(redis, { queue: 'emails', type: 'order:sync', state: 'retry', error: 'order 1234 failed: dial tcp 10.0.0.1:5432: connection refused', lastFailedAt: t - 10 });
    await seedFailed(redis, { queue: 'billing', type: 'order:sync', state: 'archived', error: 'order 98 failed: dial tcp 10.0.0.2:5432: connection refused', lastFailedAt: t - 20 });
    await seedFailed(redis, { queue: 'emails', type: 'user:load', state: 'archived', error: 'record "abc" not found (id=550e8400-e29b-41d4-a716-446655440000)' });
    await seedFailed(redis, { queue: 'emails', type: 'user:load', state: 'archived', error: 'record "xyz" not found (id=6ba7b810-9dad-11d1-80b4-00c04fd430c8)' });
    const r = await get(routes.failures.GET, '/api/failures');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ complete: true, totalGroups: 6, ungrouped: 0 });
    const kinds = r.body.groups.map((g: { kind: string }) => g.kind);
    expect(kinds).toEqual(['handler_not_found', 'handler_not_found', 'error', 'error', 'error', 'error']);
    const [newGroup, oldGroup] = r.body.groups;
    expect(newGroup).toMatchObject({
      signature: 'handler not found for task "report:new"', taskType: 'report:new', count: 6, retry: 2, archived: 4,
      queues: [{ queue: 'emails', retry: 2, archived: 3 }, { queue: 'billing', retry: 0, archived: 1 }],
      taskTypes: [{ taskType: 'report:new', count: 6 }],
    });
    expect(newGroup.explanation).toContain('No worker registered a handler for "report:new"');
    expect(oldGroup).toMatchObject({ taskType: 'report:old', count: 1 });
    const orders = r.body.groups.find((g: { signature: string }) => g.signature.startsWith('order'));
    expect(orders).toMatchObject({
      kind: 'error', taskType: null, explanation: null, count: 2, retry: 1, archived: 1,
      signature: 'order <n> failed: dial tcp <ip>:<n>: connection refused',
      exampleMessage: 'order 1234 failed: dial tcp 10.0.0.1:5432: connection refused',
      firstSeenAt: iso(t - 20), lastSeenAt: iso(t - 10),
    });
    const records = r.body.groups.find((g: { signature: string }) => g.signature.startsWith('record'));
    expect(records).toMatchObject({ signature: 'record "…" not found (id=<uuid>)', count: 2 });
    expect(records.samples).toHaveLength(2);
    expect(r.body.groups.find((g: { signature: string }) => g.signature === 'boom')).toMatchObject({ count: 1 });
    // A not-found text naming another type than the task's own is an ordinary error here.
    expect(r.body.groups.find((g: { signature: string }) => g.signature === 'handler not found for task "…"')).toMatchObject({
      kind: 'error', taskTypes: [{ taskType: 'report:x', count: 1 }],
    });
  });

  it('cuts the list at limit and filters by queue', async () => {
    for (let i = 0; i < 5; i++) await seedFailed(redis, { queue: 'q', type: 't', state: 'archived', error: `error kind ${'abcde'[i]}` });
    await seedFailed(redis, { queue: 'other', type: 't', state: 'archived', error: 'elsewhere' });
    const r = await get(routes.failures.GET, '/api/failures?queue=q&limit=2');
    expect(r.body).toMatchObject({ totalGroups: 5, queues: ['q'] });
    expect(r.body.groups).toHaveLength(2);
    expect((await get(routes.failures.GET, '/api/failures?limit=0')).status).toBe(400);
  });
});

describe('GET /api/routing/patterns without ASYNQLENS_ROUTING_FILE', () => {
  it('answers no patterns and no problem', async () => {
    expect((await get(routes.patterns.GET, '/api/routing/patterns')).body).toEqual({ patterns: [], source: null, problem: null });
  });
});
