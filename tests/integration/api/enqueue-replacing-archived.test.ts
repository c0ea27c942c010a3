/**
 * POST /api/queues/{q}/enqueue-replacing-archived against a real Redis: the archived task in the
 * way of an enqueue (its ID, or its unique lock) goes and the task is enqueued in one audited
 * step; a task that changed meanwhile, a wrong ID or hostile input changes nothing.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createInspector, keys as k } from '@/lib/asynq';
import type { AuditRecordDto } from '@/lib/contract/audit';
import { MAX_PAYLOAD_BODY_BYTES } from '@/lib/server/dto/payload';
import { callRoute, type Handler } from '../../support/call-route';
import { useConsoleRoutes } from '../../support/console-routes';
import { countCommands } from '../../support/command-counter';
import { snapshot } from '../../support/redis-snapshot';
import { testRedisUrl } from '../../support/test-redis';

const DB = 113;
const { redis, routes: r } = await useConsoleRoutes(DB, { env: { ASYNQLENS_AUDIT: 'on' } });
beforeEach(() => redis.del('asynqlens:audit'));

const HEADERS = { 'content-type': 'application/json', origin: 'http://localhost' };
const post = (handler: Handler, params: Record<string, string>, body: unknown) =>
  callRoute(handler, '/api/x', params, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
const enqueue = (q: string, body: unknown) => post(r.tasks.POST, { qname: q }, body);
const replace = (q: string, body: unknown) =>
  callRoute(r.replaceArchived.POST, `/api/queues/${encodeURIComponent(q)}/enqueue-replacing-archived`, { qname: q }, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
const archive = (q: string, id: string) => post(r.action.POST, { qname: q, taskId: id, action: 'archive' }, {});
const records = async () => (await redis.lrange('asynqlens:audit', 0, -1)).map((s) => JSON.parse(s) as AuditRecordDto);
/** The queue's keys only: the audit log is written for refusals too. */
const queueKeys = async () => Object.fromEntries(Object.entries(await snapshot(redis)).filter(([key]) => key.startsWith('asynq:')));

/** A task enqueued and then archived, as a failing task ends; returns its ID. */
async function archived(q: string, body: Record<string, unknown>): Promise<string> {
  const res = await enqueue(q, body);
  expect(res.status).toBe(201);
  expect((await archive(q, res.body.id)).status).toBe(200);
  return res.body.id as string;
}

describe('delete the archived task and enqueue', () => {
  it('takes the ID of an archived task (task_id_conflict) in one audited step', async () => {
    await archived('q', { type: 'old', payload: 'v1', options: { taskId: 'job-1' } });
    const refused = await enqueue('q', { type: 'new', payload: 'v2', options: { taskId: 'job-1' } });
    expect(refused.body.error).toMatchObject({ code: 'task_id_conflict', existing: { id: 'job-1', state: 'archived' } });

    const res = await replace('q', { archivedId: 'job-1', type: 'new', payload: 'v2', options: { taskId: 'job-1' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 'job-1', state: 'pending', type: 'new', payload: 'v2' });
    expect(await redis.zcard(k.archivedKey('q'))).toBe(0);
    expect(await redis.lrange(k.pendingKey('q'), 0, -1)).toEqual(['job-1']);
    expect(await redis.hget(k.taskKey('q', 'job-1'), 'state')).toBe('pending');
    const [rec] = await records();
    expect(rec).toMatchObject({ action: 'delete-archived-and-enqueue', target: { queue: 'q', archivedId: 'job-1', type: 'new' }, status: 201, code: null, count: 1 });
  });

  it('frees a unique lock held by an archived task (duplicate_task) and enqueues under a new ID', async () => {
    const body = { type: 'report', payload: 'p', options: { uniqueTtlSeconds: 300 } };
    const holder = await archived('q', body);
    const lock = k.uniqueKey('q', 'report', Buffer.from('p'));
    const refused = await enqueue('q', body);
    expect(refused.body.error).toMatchObject({ code: 'duplicate_task', lock: { key: lock, holderId: holder } });

    const res = await replace('q', { ...body, archivedId: holder });
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe(holder);
    expect(await redis.get(lock)).toBe(res.body.id);
    expect(await redis.ttl(lock)).toBeGreaterThan(295);
    expect(await redis.exists(k.taskKey('q', holder))).toBe(0);
    expect(await redis.hget(k.taskKey('q', res.body.id), 'unique_key')).toBe(lock);
  });

  it('a batch line refused by an archived task\'s ID names it as the single enqueue does, and the same route replaces it', async () => {
    await archived('q', { type: 'old', payload: 'v1', options: { taskId: 'line-2' } });
    await enqueue('q', { type: 'live', options: { taskId: 'line-3' } });
    const batch = await post(r.batch.POST, {}, { items: [{ queue: 'q', type: 'a' }, { queue: 'q', type: 'new', payload: 'v2', options: { taskId: 'line-2' } }, { queue: 'q', type: 'b', options: { taskId: 'line-3' } }] });
    expect(batch.status).toBe(200);
    const [, byArchived, byPending] = batch.body.results;
    expect(byArchived).toMatchObject({ ok: false, error: { code: 'task_id_conflict', existing: { id: 'line-2', queue: 'q', state: 'archived', archived: { type: 'old', lastError: expect.any(String) } } } });
    expect(byArchived.error.existing.archived.archivedAt).toMatch(/^\d{4}-/);
    // A conflict with a live task is described too, and offers nothing to delete.
    expect(byPending).toMatchObject({ ok: false, error: { code: 'task_id_conflict', existing: { id: 'line-3', state: 'pending', archived: null } } });

    await redis.del('asynqlens:audit');
    const res = await replace('q', { archivedId: 'line-2', type: 'new', payload: 'v2', options: { taskId: 'line-2' } });
    expect(res.status).toBe(201);
    expect(await redis.hget(k.taskKey('q', 'line-2'), 'state')).toBe('pending');
    expect((await records())[0]).toMatchObject({ action: 'delete-archived-and-enqueue', target: { queue: 'q', archivedId: 'line-2' }, status: 201 });
  });

  it('schedules and groups as an enqueue would', async () => {
    await archived('q', { type: 't', options: { taskId: 's' } });
    const s = await replace('q', { archivedId: 's', type: 't', options: { taskId: 's', processInSeconds: 600 } });
    expect(s.body).toMatchObject({ id: 's', state: 'scheduled' });
    expect(Number(await redis.zscore(k.scheduledKey('q'), 's')) - Date.now() / 1000).toBeGreaterThan(590);

    await archived('q', { type: 't', options: { taskId: 'g' } });
    const g = await replace('q', { archivedId: 'g', type: 't', options: { taskId: 'g', group: 'batch' } });
    expect(g.body).toMatchObject({ id: 'g', state: 'aggregating', group: 'batch' });
    expect(await redis.zrange(k.groupKey('q', 'batch'), 0, -1)).toEqual(['g']);
    expect(await redis.smembers(k.allGroups('q'))).toEqual(['batch']);
    expect(await redis.zcard(k.archivedKey('q'))).toBe(0);
  });
});

describe('when the task changed meanwhile, nothing is written and the answer says what it is now', () => {
  it('refuses a task run again in between (not_archived, with its state)', async () => {
    await archived('q', { type: 't', options: { taskId: 'job' } });
    expect((await post(r.action.POST, { qname: 'q', taskId: 'job', action: 'run' }, {})).status).toBe(200);
    const before = await queueKeys();
    const res = await replace('q', { archivedId: 'job', type: 't', options: { taskId: 'job' } });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'failed_precondition', reason: 'not_archived', state: 'pending', id: 'job' });
    expect(await queueKeys()).toEqual(before);
    // A refusal changes nothing, so it is counted apart and leaves no change record.
    expect((await records()).filter((x) => x.action === 'delete-archived-and-enqueue')).toEqual([]);
  });

  it('refuses a task deleted in between (404) and a lock that another task took after it expired', async () => {
    const body = { type: 'u', payload: 'x', options: { uniqueTtlSeconds: 60 } };
    const holder = await archived('q', body);
    const lock = k.uniqueKey('q', 'u', Buffer.from('x'));
    // The archived holder's lock ran out and a new task took it.
    await redis.set(lock, 'newcomer', 'EX', 60);
    await redis.hset(k.taskKey('q', 'newcomer'), 'state', 'pending');
    const before = await queueKeys();
    const res = await replace('q', { ...body, archivedId: holder });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'failed_precondition', reason: 'not_in_the_way', holderId: 'newcomer' });
    expect(await queueKeys()).toEqual(before);

    await callRoute(r.task.DELETE, '/', { qname: 'q', taskId: holder }, { method: 'DELETE', headers: HEADERS });
    const gone = await replace('q', { ...body, archivedId: holder });
    expect(gone.status).toBe(404);
    expect(gone.body.error).toMatchObject({ code: 'task_not_found', id: holder });
  });

  it('refuses when the ID is free but the lock the new task needs is held by another task', async () => {
    await archived('q', { type: 't', options: { taskId: 'a' } });
    const other = await enqueue('q', { type: 'u', payload: 'x', options: { uniqueTtlSeconds: 60 } });
    const before = await queueKeys();
    const res = await replace('q', { archivedId: 'a', type: 'u', payload: 'x', options: { taskId: 'a', uniqueTtlSeconds: 60 } });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'duplicate_task', lock: { holderId: other.body.id } });
    expect(await queueKeys()).toEqual(before);
  });
});

describe('racing another client', () => {
  it('against a run of the same archived task from another connection: one wins, the other is refused, never both or a mix', async () => {
    // `redis` is the test's own connection, apart from the console's: the run is another client.
    const other = createInspector(redis);
    const outcomes = { replaced: 0, ran: 0 };
    for (let i = 0; i < 25; i++) {
      const id = `race-${i}`;
      await archived('q', { type: 'old', payload: 'before', options: { taskId: id } });
      // The two start from 3 ms apart either way to together, so the run lands before, during or
      // after the route's own steps.
      const offset = (i % 7) - 3;
      const after = <T,>(ms: number, f: () => Promise<T>) => new Promise((ok) => setTimeout(ok, ms)).then(f);
      const [res, run] = await Promise.all([
        after(Math.max(0, -offset), () => replace('q', { archivedId: id, type: 'new', payload: 'after', options: { taskId: id } })),
        after(Math.max(0, offset), () => other.moveTask('q', id, 'run')).then(() => 'ran', (e: Error) => e.message),
      ]);
      const msgType = (await callRoute(r.task.GET, '/', { qname: 'q', taskId: id })).body.type;
      if (res.status === 201) {
        outcomes.replaced++;
        expect(run, 'the run finds the task pending already').not.toBe('ran');
        expect(msgType).toBe('new');
      } else {
        outcomes.ran++;
        expect(run).toBe('ran');
        expect(res.body.error).toMatchObject({ reason: 'not_archived', state: 'pending' });
        expect(msgType).toBe('old');
      }
      expect(await redis.hget(k.taskKey('q', id), 'state')).toBe('pending');
      expect((await redis.lrange(k.pendingKey('q'), 0, -1)).filter((x) => x === id)).toEqual([id]);
    }
    expect(await redis.zcard(k.archivedKey('q'))).toBe(0);
    expect(outcomes.replaced + outcomes.ran).toBe(25);
  });

  it('costs one round trip: SADD asynq:queues and the script, pipelined', async () => {
    await archived('q', { type: 't', options: { taskId: 'one' } });
    await replace('q', { archivedId: 'one', type: 't', options: { taskId: 'warm-up-is-refused' } });
    const { result, commands } = await countCommands(testRedisUrl(DB), DB, () => replace('q', { archivedId: 'one', type: 't', options: { taskId: 'one' } }));
    expect(result.status).toBe(201);
    // What follows is the audit record's write (MULTI, LPUSH, LTRIM, EXEC), not the action.
    expect(commands.slice(0, 2)).toEqual(['sadd', 'evalsha']);
    expect(commands.slice(2).every((c) => ['multi', 'lpush', 'ltrim', 'exec'].includes(c)), commands.join(' ')).toBe(true);
  });
});

describe('hostile input gets a 4xx naming the field, and changes nothing', () => {
  it('refuses an archived task that is not in the way, a wrong ID, a blank or missing one', async () => {
    await archived('q', { type: 't', options: { taskId: 'bystander' } });
    const before = await queueKeys();
    const unrelated = await replace('q', { archivedId: 'bystander', type: 't' });
    expect(unrelated.status).toBe(409);
    expect(unrelated.body.error).toMatchObject({ reason: 'not_in_the_way', holderId: null });
    for (const archivedId of ['nope', 'x}{y', 'bystander\u0000', '*']) {
      const res = await replace('q', { archivedId, type: 't', options: { taskId: archivedId } });
      expect(res.status, archivedId).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'task_not_found', id: archivedId });
    }
    expect(await queueKeys()).toEqual(before);
    for (const [body, field] of [
      [{ archivedId: '', type: 't' }, 'archivedId'],
      [{ type: 't' }, 'archivedId'],
      [{ archivedId: 7, type: 't' }, 'archivedId'],
      [{ archivedId: '   ', type: 't' }, 'archivedId'],
      [{ archivedId: 'bystander', type: '' }, 'type'],
      [{ archivedId: 'bystander', type: 't', extra: 1 }, 'body'],
    ] as const) {
      const res = await replace('q', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.field, JSON.stringify(body)).toBe(field);
    }
    expect(await queueKeys()).toEqual(before);
  });

  it('refuses a queue name that breaks the key layout and a body over the limit', async () => {
    const res = await replace('a}{b', { archivedId: 'x', type: 't' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_argument', field: 'qname' });
    const huge = await replace('q', { archivedId: 'x', type: 't', payload: 'x'.repeat(MAX_PAYLOAD_BODY_BYTES + 1) });
    expect(huge.status).toBe(413);
    expect(huge.body.error).toMatchObject({ code: 'payload_too_large', field: 'body' });
    expect(await redis.keys('asynq:*')).toEqual([]);
  });
});
