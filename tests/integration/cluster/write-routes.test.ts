/**
 * Every mutation route on a 3-master Redis Cluster: enqueue (plain, scheduled, grouped, unique,
 * ID conflict), batch enqueue across masters, single-task and bulk actions, pause/resume, queue
 * delete, lock release, duplicate resolve, reschedule, not-found re-run, search actions, delete-the-archived-
 * task-and-enqueue (by ID and by lock), and the rule for
 * queue names that cannot live on a cluster.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keys as k } from '@/lib/asynq';
import { QUEUE_NAME_RULE } from '@/lib/asynq/queue-name';
import { json, newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedActive, seedLock, seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import { masterNodes } from '@/lib/asynq/topology';
import { callRoute, type Handler } from '../../support/call-route';
import { consoleRoutes, type ConsoleRoutes } from '../../support/console-routes';
import { queuesPerMaster, send, startClusterApp, type ClusterApp } from './cluster-app';

let app: ClusterApp;
/** One queue on each master. */
let qs: [string, string, string];
let r: ConsoleRoutes;
const nowSec = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  app = await startClusterApp('write-routes');
  qs = [...(await queuesPerMaster(app.redis, 'wq', 1)).values()].flat() as [string, string, string];
  r = await consoleRoutes();
}, 60_000);

afterAll(() => app?.stop());

beforeEach(async () => {
  for (const node of await masterNodes(app.redis)) await node.flushdb();
});

const enqueue = (q: string, body: unknown) => send(r.tasks.POST, 'POST', '/', { qname: q }, body);
const state = (q: string, id: string) => app.redis.hget(k.taskKey(q, id), 'state');

describe('delete the archived task and enqueue', () => {
  it('takes an archived task\'s ID and an archived holder\'s lock on every master: one script in the queue\'s slot', async () => {
    const replace = (q: string, body: unknown) => send(r.replaceArchived.POST, 'POST', '/', { qname: q }, body);
    for (const q of qs) {
      await seedZset(app.redis, 'archived', newTaskMessage({ type: 't', queue: q, id: 'arch' }), nowSec());
      const byId = await replace(q, { archivedId: 'arch', type: 't2', options: { taskId: 'arch' } });
      expect([q, byId.status]).toEqual([q, 201]);
      expect(await state(q, 'arch')).toBe('pending');
      const lock = k.uniqueKey(q, 'u', Buffer.from('x'));
      await seedZset(app.redis, 'archived', newTaskMessage({ type: 'u', queue: q, id: 'holder', uniqueKey: lock }), nowSec());
      await seedLock(app.redis, lock, 'holder', 600);
      const byLock = await replace(q, { archivedId: 'holder', type: 'u', payload: 'x', options: { uniqueTtlSeconds: 60 } });
      expect([q, byLock.status]).toEqual([q, 201]);
      expect(await app.redis.get(lock)).toBe(byLock.body.id);
      expect(await app.redis.zcard(k.archivedKey(q))).toBe(0);
      expect(await app.redis.sismember(k.ALL_QUEUES, q)).toBe(1);
    }
  });
});

describe('enqueue', () => {
  it('enqueues, schedules and groups into queues on every master', async () => {
    for (const q of qs) {
      const a = await enqueue(q, { type: 't', payload: '{"a":1}', options: { taskId: `p-${q}` } });
      expect([q, a.status]).toEqual([q, 201]);
      const s = await enqueue(q, { type: 't', options: { processInSeconds: 600 } });
      expect(s.body.state).toBe('scheduled');
      const g = await enqueue(q, { type: 't', options: { group: 'g1' } });
      expect(g.body).toMatchObject({ state: 'aggregating', group: 'g1' });
      expect(await app.redis.sismember(k.ALL_QUEUES, q)).toBe(1);
      expect(await app.redis.lrange(k.pendingKey(q), 0, -1)).toEqual([`p-${q}`]);
      expect(await app.redis.zcard(k.scheduledKey(q))).toBe(1);
      expect(await app.redis.smembers(k.allGroups(q))).toEqual(['g1']);
    }
  });

  it('refuses a duplicate unique task with its lock, and a taken task ID with the existing task', async () => {
    const q = qs[1];
    const first = await enqueue(q, { type: 'u', payload: 'x', options: { uniqueTtlSeconds: 60 } });
    expect(first.status).toBe(201);
    const dup = await enqueue(q, { type: 'u', payload: 'x', options: { uniqueTtlSeconds: 60 } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'duplicate_task', lock: { key: k.uniqueKey(q, 'u', Buffer.from('x')), holderId: first.body.id } });
    await enqueue(q, { type: 'a', options: { taskId: 'same' } });
    const clash = await enqueue(q, { type: 'b', options: { taskId: 'same' } });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({ code: 'task_id_conflict', existing: { id: 'same', queue: q, state: 'pending' } });
  });

  it('batch-enqueues into queues on every master in one request', async () => {
    const items = qs.flatMap((q) => [{ queue: q, type: 'b', payload: '1' }, { queue: q, type: 'b', options: { processInSeconds: 60 } }]);
    const res = await send(r.batch.POST, 'POST', '/api/enqueue-batch', {}, { items });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toMatch(/"ok":false/);
    for (const q of qs) {
      expect(await app.redis.llen(k.pendingKey(q))).toBe(1);
      expect(await app.redis.zcard(k.scheduledKey(q))).toBe(1);
    }
    expect((await app.redis.smembers(k.ALL_QUEUES)).sort()).toEqual([...qs].sort());
  });
});

describe('single-task actions', () => {
  it('runs, archives, updates, deletes and cancels tasks', async () => {
    const q = qs[2];
    const sched = newTaskMessage({ type: 't', queue: q, payload: json({ v: 1 }) });
    const pend = newTaskMessage({ type: 't', queue: q });
    const act = newTaskMessage({ type: 't', queue: q });
    await seedZset(app.redis, 'scheduled', sched, nowSec() + 600);
    await seedPending(app.redis, pend);
    await seedActive(app.redis, act);
    const action = (id: string, a: string) => send(r.action.POST, 'POST', '/', { qname: q, taskId: id, action: a }, {});
    const patched = await send(r.task.PATCH, 'PATCH', '/', { qname: q, taskId: sched.id }, { payload: '{"v":2}' });
    expect(patched.status).toBe(200);
    expect(patched.body.payload).toBe('{"v":2}');
    expect((await action(sched.id, 'run')).body.state).toBe('pending');
    expect((await action(pend.id, 'archive')).body.state).toBe('archived');
    expect(await app.redis.zrange(k.archivedKey(q), 0, -1)).toEqual([pend.id]);
    expect((await action(act.id, 'cancel')).status).toBe(202);
    expect((await action(act.id, 'run')).status).toBe(409);
    expect((await callRoute(r.task.DELETE, '/', { qname: q, taskId: pend.id }, { method: 'DELETE' })).status).toBe(204);
    expect(await state(q, pend.id)).toBeNull();
    expect(await app.redis.lrange(k.pendingKey(q), 0, -1)).toEqual([sched.id]);
  });
});

describe('reschedule', () => {
  it('moves a scheduled and a retry task on every master: one script in the queue\'s slot', async () => {
    for (const q of qs) {
      const sched = newTaskMessage({ type: 't', queue: q });
      const retry = newTaskMessage({ type: 't', queue: q });
      await seedZset(app.redis, 'scheduled', sched, nowSec() + 600);
      await seedZset(app.redis, 'retry', retry, nowSec() + 600);
      const at = nowSec() + 7200;
      for (const [m, key] of [[sched, k.scheduledKey(q)], [retry, k.retryKey(q)]] as const) {
        const res = await send(r.reschedule.POST, 'POST', '/', { qname: q, taskId: m.id }, { processAt: new Date(at * 1000).toISOString() });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(await app.redis.zscore(key, m.id)).toBe(String(at));
      }
    }
  });
});

describe('bulk actions and queue actions', () => {
  it('archives all, runs all and deletes all, on each master', async () => {
    for (const q of qs) {
      for (let i = 0; i < 30; i++) await seedPending(app.redis, newTaskMessage({ type: 't', queue: q }));
      const bulk = (body: unknown) => send(r.bulk.POST, 'POST', '/', { qname: q }, body);
      expect((await bulk({ action: 'archive', state: 'pending' })).body).toMatchObject({ succeeded: 30, failed: [] });
      expect(await app.redis.zcard(k.archivedKey(q))).toBe(30);
      const two = (await app.redis.zrange(k.archivedKey(q), 0, 1));
      expect((await bulk({ action: 'run', state: 'archived', ids: two })).body).toMatchObject({ succeeded: 2 });
      expect((await bulk({ action: 'run', state: 'archived' })).body).toMatchObject({ succeeded: 28 });
      expect(await app.redis.llen(k.pendingKey(q))).toBe(30);
      expect((await bulk({ action: 'delete', state: 'pending' })).body).toMatchObject({ succeeded: 30 });
      expect(await app.redis.llen(k.pendingKey(q))).toBe(0);
    }
  });

  it('pauses, resumes and deletes queues', async () => {
    const q = qs[0];
    await seedPending(app.redis, newTaskMessage({ type: 't', queue: q }));
    expect((await send(r.pause.POST, 'POST', '/', { qname: q }, {})).body.paused).toBe(true);
    expect(await app.redis.exists(k.pausedKey(q))).toBe(1);
    expect((await send(r.resume.POST, 'POST', '/', { qname: q }, {})).body.paused).toBe(false);
    expect((await callRoute(r.queue.DELETE, `/api/queues/${q}`, { qname: q }, { method: 'DELETE' })).status).toBe(409);
    expect((await callRoute(r.queue.DELETE, `/api/queues/${q}?force=true`, { qname: q }, { method: 'DELETE' })).status).toBe(204);
    expect(await app.redis.sismember(k.ALL_QUEUES, q)).toBe(0);
    expect(await app.redis.exists(k.pendingKey(q))).toBe(0);
  });
});

describe('diagnostics actions', () => {
  it('releases an orphaned lock and resolves duplicates', async () => {
    const q = qs[1];
    const key = k.uniqueKey(q, 'x', null);
    await app.redis.sadd(k.ALL_QUEUES, q);
    await seedLock(app.redis, key, 'gone', 600);
    const rel = await callRoute(r.locks.DELETE, `/?key=${encodeURIComponent(key)}`, { qname: q }, { method: 'DELETE' });
    expect(rel.status).toBe(204);
    expect(await app.redis.exists(key)).toBe(0);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const m = newTaskMessage({ type: 'dup', queue: q, payload: json({ same: 1 }) });
      await seedPending(app.redis, m);
      ids.push(m.id);
    }
    const res = await send(r.resolve.POST, 'POST', '/', { qname: q }, { taskIds: ids.slice(1) });
    expect(res.body).toMatchObject({ deleted: 2, failed: [] });
    expect(await app.redis.lrange(k.pendingKey(q), 0, -1)).toEqual([ids[0]]);
  });

  it('re-runs handler-not-found tasks and acts on search matches across masters', async () => {
    const q = qs[2];
    const lost = newTaskMessage({ type: 'lost', queue: q, errorMsg: 'handler not found for task "lost"' });
    await seedZset(app.redis, 'archived', lost, nowSec() - 10);
    const rerun = await send(r.rerun.POST, 'POST', '/api/handler-not-found/rerun', {}, { queue: q, taskType: 'lost' });
    expect(rerun.status).toBe(200);
    expect(rerun.body.succeeded).toBe(1);
    expect(await state(q, lost.id)).toBe('pending');
    for (const queue of qs) await seedZset(app.redis, 'retry', newTaskMessage({ type: 'flaky', queue }), nowSec() + 60);
    const preview = await send(r.act.POST, 'POST', '/api/tasks/search/act', {}, { filter: { type: 'flaky' }, action: 'archive', preview: true });
    expect(preview.body).toMatchObject({ preview: true, count: 3 });
    const done = await send(r.act.POST, 'POST', '/api/tasks/search/act', {}, { filter: { type: 'flaky' }, action: 'archive' });
    expect(done.status).toBe(200);
    for (const queue of qs) expect(await app.redis.zcard(k.archivedKey(queue))).toBe(1);
  });
});

describe('a queue name starting with "}"', () => {
  const bad = '}x';
  const rule = 'queue "}x": on Redis Cluster a queue name must not start with "}" (its keys would hash to different slots)';

  it('is refused with 400 by every route that names it, before anything is written', async () => {
    const checks: [Handler, string, Record<string, string>, unknown?][] = [
      [r.queue.GET, 'GET', { qname: bad }],
      [r.history.GET, 'GET', { qname: bad }],
      [r.tasks.GET, 'GET', { qname: bad }],
      [r.task.GET, 'GET', { qname: bad, taskId: 'a' }],
      [r.groups.GET, 'GET', { qname: bad }],
      [r.locks.GET, 'GET', { qname: bad }],
      [r.duplicates.GET, 'GET', { qname: bad }],
      [r.tasks.POST, 'POST', { qname: bad }, { type: 't' }],
      [r.check.POST, 'POST', { qname: bad }, { type: 't' }],
      [r.action.POST, 'POST', { qname: bad, taskId: 'a', action: 'run' }, {}],
      [r.task.DELETE, 'DELETE', { qname: bad, taskId: 'a' }],
      [r.reschedule.POST, 'POST', { qname: bad, taskId: 'a' }, { processAt: new Date(Date.now() + 60_000).toISOString() }],
      [r.bulk.POST, 'POST', { qname: bad }, { action: 'delete', state: 'pending' }],
      [r.pause.POST, 'POST', { qname: bad }, {}],
      [r.queue.DELETE, 'DELETE', { qname: bad }],
    ];
    for (const [h, method, params, body] of checks) {
      const path = method === 'GET' && params.taskId === undefined ? `/?state=pending` : '/';
      const res = await send(h, method, path, params, body);
      expect([JSON.stringify(params), method, res.status]).toEqual([JSON.stringify(params), method, 400]);
      // Enqueue refuses any brace on every deployment (lib/asynq/queue-name.ts), before the cluster rule.
      const message = h === r.tasks.POST ? `qname: ${QUEUE_NAME_RULE}` : rule;
      expect(res.body.error).toMatchObject({ code: 'invalid_argument', message });
    }
    const batch = await send(r.batch.POST, 'POST', '/api/enqueue-batch', {}, { items: [{ queue: bad, type: 't' }, { queue: qs[0], type: 't' }] });
    expect(batch.status).toBe(400);
    expect(batch.body.error).toMatchObject({ code: 'invalid_argument', field: 'items.0.queue' });
    const search = await callRoute(r.search.GET, `/api/tasks/search?queue=${encodeURIComponent(bad)}`);
    expect(search.status).toBe(400);
    for (const node of await masterNodes(app.redis)) expect(await node.keys('*}x*')).toEqual([]);
  });

  it('shows as a problem row in the queue list, which still lists the other queues', async () => {
    await app.redis.sadd(k.ALL_QUEUES, bad);
    await seedPending(app.redis, newTaskMessage({ type: 't', queue: qs[0] }));
    const { status, body } = await callRoute(r.queues.GET, '/api/queues');
    expect(status).toBe(200);
    expect(body.queues.map((q: { queue: string; problem: string | null; pending: number }) => [q.queue, q.problem, q.pending])).toEqual([
      [qs[0], null, 1],
      [bad, rule, 0],
    ]);
    const search = await callRoute(r.search.GET, '/api/tasks/search?state=pending');
    expect(search.body.tasks).toHaveLength(1);
  });
});
