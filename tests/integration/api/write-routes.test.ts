/**
 * The mutation routes against a real Redis: asynq's rules and texts, the guards, and that a
 * refused request changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { keys as k } from '@/lib/asynq';
import { json, newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedActive, seedAggregating, seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import { callRoute, type Handler, type JsonBody } from '../../support/call-route';
import { useConsoleRoutes } from '../../support/console-routes';
import { snapshot } from '../../support/redis-snapshot';

const DB = 3;
const { redis, routes: r } = await useConsoleRoutes(DB);

const JSON_HEADERS = { 'content-type': 'application/json' };
const post = (handler: Handler, params: Record<string, string>, body: unknown = {}, headers: Record<string, string> = JSON_HEADERS) =>
  callRoute(handler, '/api/x', params, { method: 'POST', headers, body: JSON.stringify(body) });
const enqueue = (q: string, body: unknown) => post(r.tasks.POST, { qname: q }, body);

describe('POST /api/queues/{q}/tasks', () => {
  it('enqueues with every option and the result reads back the same', async () => {
    const res = await enqueue('emails', {
      type: 'email:send',
      payload: '{"to":"a@b.c"}',
      options: { taskId: 'my-id', maxRetry: 3, timeoutSeconds: 60, retentionSeconds: 3600, headers: { tenant: 'acme' } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'my-id', queue: 'emails', state: 'pending', maxRetry: 3, timeoutSeconds: 60, retentionSeconds: 3600, headers: { tenant: 'acme' } });
    const back = await callRoute(r.task.GET, '/', { qname: 'emails', taskId: 'my-id' });
    expect(back.body).toMatchObject({ type: 'email:send', payload: '{"to":"a@b.c"}', state: 'pending', maxRetry: 3, deadline: null });
    expect(await redis.sismember(k.ALL_QUEUES, 'emails')).toBe(1);
  });

  it('applies asynq’s defaults: MaxRetry 25 and a 30 minute timeout unless a deadline is set', async () => {
    const a = await enqueue('q', { type: 't' });
    expect(a.body).toMatchObject({ maxRetry: 25, timeoutSeconds: 1800, deadline: null });
    const b = await enqueue('q', { type: 't', options: { deadline: '2030-01-01T00:00:00Z' } });
    expect(b.body).toMatchObject({ timeoutSeconds: 0, deadline: '2030-01-01T00:00:00Z' });
  });

  it('schedules with processInSeconds and adds to a group', async () => {
    const s = await enqueue('q', { type: 't', options: { processInSeconds: 120 } });
    expect(s.body.state).toBe('scheduled');
    expect(Date.parse(s.body.nextProcessAt) - Date.now()).toBeGreaterThan(100_000);
    const g = await enqueue('q', { type: 't', options: { group: 'g1' } });
    expect(g.body).toMatchObject({ state: 'aggregating', group: 'g1' });
    expect(await redis.smembers(k.allGroups('q'))).toEqual(['g1']);
  });

  it('refuses a duplicate with the lock’s holder and TTL, and a taken ID with the existing task', async () => {
    const first = await enqueue('q', { type: 'u', payload: 'x', options: { uniqueTtlSeconds: 60 } });
    expect(first.status).toBe(201);
    const dup = await enqueue('q', { type: 'u', payload: 'x', options: { uniqueTtlSeconds: 60 } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'duplicate_task', message: 'task already exists', lock: { key: k.uniqueKey('q', 'u', Buffer.from('x')), holderId: first.body.id } });
    expect(dup.body.error.lock.ttlSeconds).toBeGreaterThan(58);

    await enqueue('q', { type: 't', options: { taskId: 'same' } });
    const before = await snapshot(redis);
    const clash = await enqueue('q', { type: 't', payload: 'y', options: { taskId: 'same', uniqueTtlSeconds: 10 } });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({ code: 'task_id_conflict', message: 'task ID conflicts with another task', existing: { id: 'same', queue: 'q', state: 'pending' } });
    // The lock taken for the refused task is given back: nothing changed.
    expect(await snapshot(redis)).toEqual(before);
  });

  it('rejects invalid input with asynq’s text, naming the field, and changes nothing', async () => {
    for (const [body, field, message] of [
      [{ type: 't', options: { uniqueTtlSeconds: 0.5 } }, 'uniqueTtlSeconds', 'Unique TTL cannot be less than 1s'],
      [{ type: '  ' }, 'type', 'task typename cannot be empty'],
      [{ type: 't', options: { taskId: ' ' } }, 'taskId', 'task ID cannot be empty'],
      [{ type: 't', options: { group: '' } }, 'group', 'group key cannot be empty'],
      [{ type: 't', payload: '%%%', payloadEncoding: 'base64' }, 'payload', 'payload: not valid base64'],
    ] as const) {
      const res = await enqueue('q', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_argument', field, message });
    }
    expect(await redis.dbsize()).toBe(0);
    const blankQueue = await enqueue(' ', { type: 't' });
    expect(blankQueue.status).toBe(400);
  });
});

describe('POST /api/queues/{q}/enqueue-check', () => {
  it('says which lock an enqueue would take, who holds it, and whether the ID is taken', async () => {
    const first = await enqueue('q', { type: 'u', payload: 'x', options: { uniqueTtlSeconds: 60, taskId: 'held' } });
    expect(first.status).toBe(201);
    const check = (body: unknown) => post(r.check.POST, { qname: 'q' }, body);
    const held = await check({ type: 'u', payload: 'x', unique: true, taskId: 'held' });
    expect(held.status).toBe(200);
    expect(held.body).toMatchObject({
      uniqueKey: k.uniqueKey('q', 'u', Buffer.from('x')),
      lock: { held: true, holderId: 'held', holderState: 'pending' },
      taskId: { id: 'held', taken: true, state: 'pending' },
    });
    const free = await check({ type: 'u', payload: 'y', unique: true, taskId: 'new' });
    expect(free.body).toMatchObject({ lock: { held: false, holderId: null, ttlSeconds: null }, taskId: { taken: false } });
    const nil = await check({ type: 'u' });
    expect(nil.body).toMatchObject({ uniqueKey: null, lock: null, taskId: null });
    expect(nil.body.routing).toMatchObject({ queue: 'q', verdict: 'unknown' });
  });
});

describe('single-task actions', () => {
  it('runs, archives and deletes with asynq’s state rules and texts', async () => {
    const arch = newTaskMessage({ type: 't', queue: 'q' });
    await seedZset(redis, 'archived', arch, 1_700_000_000);
    const run = await post(r.action.POST, { qname: 'q', taskId: arch.id, action: 'run' });
    expect(run.status).toBe(200);
    expect(run.body.state).toBe('pending');
    expect(await redis.lrange(k.pendingKey('q'), 0, -1)).toEqual([arch.id]);
    expect(await redis.zcard(k.archivedKey('q'))).toBe(0);

    const again = await post(r.action.POST, { qname: 'q', taskId: arch.id, action: 'run' });
    expect(again.body.error).toMatchObject({ code: 'failed_precondition', message: 'task is already in pending state' });

    const archived = await post(r.action.POST, { qname: 'q', taskId: arch.id, action: 'archive' });
    expect(archived.body.state).toBe('archived');
    const twice = await post(r.action.POST, { qname: 'q', taskId: arch.id, action: 'archive' });
    expect(twice.body.error.message).toBe(`task is already archived: id=${arch.id}, queue=q`);

    const del = await callRoute(r.task.DELETE, '/', { qname: 'q', taskId: arch.id }, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(await redis.exists(k.taskKey('q', arch.id))).toBe(0);
    expect((await callRoute(r.task.DELETE, '/', { qname: 'q', taskId: arch.id }, { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses to touch an active task and leaves Redis as it was', async () => {
    const m = newTaskMessage({ type: 't', queue: 'q' });
    await seedActive(redis, m);
    const before = await snapshot(redis);
    const del = await callRoute(r.task.DELETE, '/', { qname: 'q', taskId: m.id }, { method: 'DELETE' });
    expect(del.status).toBe(409);
    expect(del.body.error.message).toBe('cannot delete task in active state. use CancelProcessing instead.');
    const arch = await post(r.action.POST, { qname: 'q', taskId: m.id, action: 'archive' });
    expect(arch.body.error.message).toBe('cannot archive task in active state. use CancelProcessing instead.');
    const run = await post(r.action.POST, { qname: 'q', taskId: m.id, action: 'run' });
    expect(run.body.error.message).toBe('task is already running');
    expect(await snapshot(redis)).toEqual(before);
  });

  it('cancels an active task through asynq’s cancel channel', async () => {
    const m = newTaskMessage({ type: 't', queue: 'q' });
    await seedActive(redis, m);
    const sub = redis.duplicate();
    const got = new Promise<string>((resolve) => sub.on('message', (_c, id: string) => resolve(id)));
    await sub.subscribe(k.CANCEL_CHANNEL);
    const res = await post(r.action.POST, { qname: 'q', taskId: m.id, action: 'cancel' });
    expect(res.status).toBe(202);
    expect(await got).toBe(m.id);
    sub.disconnect();
  });

  it('deleting a unique task releases its lock only while the task still holds it', async () => {
    const key = k.uniqueKey('q', 'u', null);
    const a = newTaskMessage({ type: 'u', queue: 'q', uniqueKey: key });
    const b = newTaskMessage({ type: 'u', queue: 'q', uniqueKey: key });
    await seedZset(redis, 'archived', a, 1);
    await seedZset(redis, 'archived', b, 2);
    await redis.set(key, b.id, 'EX', 100);
    await callRoute(r.task.DELETE, '/', { qname: 'q', taskId: a.id }, { method: 'DELETE' });
    expect(await redis.get(key)).toBe(b.id);
    await callRoute(r.task.DELETE, '/', { qname: 'q', taskId: b.id }, { method: 'DELETE' });
    expect(await redis.exists(key)).toBe(0);
  });

  it('updates the payload of a scheduled task only', async () => {
    const s = newTaskMessage({ type: 't', queue: 'q', payload: json({ v: 1 }), retry: 7 });
    await seedZset(redis, 'scheduled', s, 2_000_000_000);
    const patch = (id: string, payload: string) =>
      callRoute(r.task.PATCH, '/', { qname: 'q', taskId: id }, { method: 'PATCH', headers: JSON_HEADERS, body: JSON.stringify({ payload }) });
    const ok = await patch(s.id, '{"v":2}');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ payload: '{"v":2}', maxRetry: 7, state: 'scheduled' });
    const p = newTaskMessage({ type: 't', queue: 'q' });
    await seedPending(redis, p);
    expect((await patch(p.id, 'x')).body.error.message).toBe('cannot update task that is not in scheduled state.');
  });
});

describe('bulk actions', () => {
  it('runs every archived task in batches of 500, each exactly once', async () => {
    const ids: string[] = [];
    const pipe = redis.pipeline();
    for (let i = 0; i < 1234; i++) ids.push(newTaskMessage({ type: 't', queue: 'q' }).id);
    await pipe.exec();
    for (const [i, id] of ids.entries()) await seedZset(redis, 'archived', newTaskMessage({ type: 't', queue: 'q', id }), 1_700_000_000 + i);
    const res = await post(r.bulk.POST, { qname: 'q' }, { action: 'run', state: 'archived' });
    expect(res.body).toMatchObject({ succeeded: 1234, failed: [], stopped: false });
    const pending = await redis.lrange(k.pendingKey('q'), 0, -1);
    expect(pending.length).toBe(1234);
    expect(new Set(pending)).toEqual(new Set(ids));
    // asynq's RunAll LPUSHes in ascending score order: the oldest archived is the next to run.
    expect(pending.at(-1)).toBe(ids[0]);
    expect(await redis.exists(k.archivedKey('q'))).toBe(0);
  });

  it('acts on chosen IDs and reports the ones it could not move', async () => {
    const a = newTaskMessage({ type: 't', queue: 'q' });
    const b = newTaskMessage({ type: 't', queue: 'q' });
    await seedZset(redis, 'retry', a, 100);
    await seedPending(redis, b);
    const res = await post(r.bulk.POST, { qname: 'q' }, { action: 'archive', state: 'retry', ids: [a.id, b.id, 'nope'] });
    expect(res.body.succeeded).toBe(1);
    expect(res.body.failed.map((f: JsonBody) => [f.id, f.error.code])).toEqual([
      [b.id, 'failed_precondition'],
      ['nope', 'task_not_found'],
    ]);
    expect(await redis.hget(k.taskKey('q', a.id), 'state')).toBe('archived');
  });

  it('deletes every aggregating task of a group and releases locks the tasks still own', async () => {
    const key = k.uniqueKey('q', 'g', json(1));
    const m = newTaskMessage({ type: 'g', queue: 'q', groupKey: 'grp', payload: json(1), uniqueKey: key });
    await seedAggregating(redis, m);
    await redis.set(key, m.id, 'EX', 100);
    const res = await post(r.bulk.POST, { qname: 'q' }, { action: 'delete', state: 'aggregating', group: 'grp' });
    expect(res.body.succeeded).toBe(1);
    expect(await redis.exists(key, k.taskKey('q', m.id), k.groupKey('q', 'grp'))).toBe(0);
    expect(await redis.smembers(k.allGroups('q'))).toEqual([]);
  });

  it('refuses an action the state does not allow', async () => {
    await seedPending(redis, newTaskMessage({ type: 't', queue: 'q' }));
    const res = await post(r.bulk.POST, { qname: 'q' }, { action: 'run', state: 'pending' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_argument', field: 'state', message: 'cannot run tasks in pending state' });
  });
});

describe('queue actions', () => {
  it('pauses and resumes with asynq’s texts', async () => {
    await seedPending(redis, newTaskMessage({ type: 't', queue: 'q' }));
    expect((await post(r.pause.POST, { qname: 'q' })).body.paused).toBe(true);
    expect((await post(r.pause.POST, { qname: 'q' })).body.error.message).toBe('queue "q" is already paused');
    expect((await post(r.resume.POST, { qname: 'q' })).body.paused).toBe(false);
    expect((await post(r.resume.POST, { qname: 'q' })).body.error.message).toBe('queue "q" is not paused');
  });

  it('deletes an empty queue, refuses a non-empty one unless forced', async () => {
    await seedPending(redis, newTaskMessage({ type: 't', queue: 'q' }));
    const del = (force: boolean) => callRoute(r.queue.DELETE, `/api/queues/q?force=${force}`, { qname: 'q' }, { method: 'DELETE' });
    const refused = await del(false);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe('queue "q" is not empty');
    expect((await del(true)).status).toBe(204);
    expect(await redis.sismember(k.ALL_QUEUES, 'q')).toBe(0);
    expect(await redis.keys('asynq:{q}:*')).toEqual([]);
  });
});

describe('cross-site and content-type guards', () => {
  it('refuses another origin (403) and a form body (415) and changes nothing', async () => {
    const m = newTaskMessage({ type: 't', queue: 'q' });
    await seedZset(redis, 'archived', m, 1);
    const before = await snapshot(redis);
    const evil = await post(r.action.POST, { qname: 'q', taskId: m.id, action: 'run' }, {}, { ...JSON_HEADERS, origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(evil.body.error.code).toBe('forbidden');
    const site = await post(r.action.POST, { qname: 'q', taskId: m.id, action: 'run' }, {}, { ...JSON_HEADERS, 'sec-fetch-site': 'cross-site' });
    expect(site.status).toBe(403);
    const form = await callRoute(r.action.POST, '/api/x', { qname: 'q', taskId: m.id, action: 'run' }, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1',
    });
    expect(form.status).toBe(415);
    expect(await snapshot(redis)).toEqual(before);
    const same = await post(r.action.POST, { qname: 'q', taskId: m.id, action: 'run' }, {}, { ...JSON_HEADERS, origin: 'http://localhost' });
    expect(same.status).toBe(200);
  });
});
