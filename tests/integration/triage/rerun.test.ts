/**
 * POST /api/handler-not-found/rerun: moves exactly the not-found tasks of one type in one queue
 * back to pending (JSON and NDJSON progress), with the mutation guards, and what happens to a
 * task that leaves its state between finding and moving.
 */
import { describe, expect, it } from 'vitest';
import { rerunNotFound, type RerunProgress } from '@/lib/asynq';
import * as k from '@/lib/asynq/keys';
import { consoleRoutes } from '../../support/console-routes';
import { snapshot } from '../../support/redis-snapshot';
import { callRoute } from '../../support/call-route';
import { get, notFoundError, useTriageRedis, postJson, postNdjson, seedFailed } from './helpers';

const DB = 71;
const routes = await consoleRoutes();
const redis = await useTriageRedis(DB);

async function seedMixed() {
  const target: string[] = [];
  for (let i = 0; i < 3; i++) target.push((await seedFailed(redis, { queue: 'q', type: 'report:new', state: 'archived', error: notFoundError('report:new') })).id);
  const retry: string[] = [];
  for (let i = 0; i < 2; i++) retry.push((await seedFailed(redis, { queue: 'q', type: 'report:new', state: 'retry', error: notFoundError('report:new') })).id);
  const boom = (await seedFailed(redis, { queue: 'q', type: 'report:new', state: 'archived', error: 'boom' })).id;
  const old = (await seedFailed(redis, { queue: 'q', type: 'report:old', state: 'archived', error: notFoundError('report:old') })).id;
  await seedFailed(redis, { queue: 'other', type: 'report:new', state: 'archived', error: notFoundError('report:new') });
  return { archived: target, retry, boom, old };
}

const pendingIds = async (q: string) => (await redis.lrange(k.pendingKey(q), 0, -1)).sort();

describe('POST /api/handler-not-found/rerun', () => {
  it('re-runs every not-found task of the type in the queue, and nothing else', async () => {
    const s = await seedMixed();
    const otherBefore = Object.fromEntries(Object.entries(await snapshot(redis)).filter(([key]) => key.includes('{other}')));
    const r = await postJson(routes.rerun.POST, '/api/handler-not-found/rerun', { queue: 'q', taskType: 'report:new' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      succeeded: 5,
      failed: [],
      byState: { archived: { found: 3, succeeded: 3, failed: 0 }, retry: { found: 2, succeeded: 2, failed: 0 } },
      stopped: false,
    });
    expect(await pendingIds('q')).toEqual([...s.archived, ...s.retry].sort());
    for (const id of [...s.archived, ...s.retry]) expect(await redis.hget(k.taskKey('q', id), 'state')).toBe('pending');
    expect((await redis.zrange(k.archivedKey('q'), 0, -1)).sort()).toEqual([s.boom, s.old].sort());
    expect(await redis.zcard(k.retryKey('q'))).toBe(0);
    const otherAfter = Object.fromEntries(Object.entries(await snapshot(redis)).filter(([key]) => key.includes('{other}')));
    expect(otherAfter).toEqual(otherBefore);
  });

  it('takes only the states asked for', async () => {
    const s = await seedMixed();
    const r = await postJson(routes.rerun.POST, '/api/handler-not-found/rerun', { queue: 'q', taskType: 'report:new', states: ['retry'] });
    expect(r.body).toMatchObject({ succeeded: 2, byState: { retry: { found: 2 } } });
    expect(r.body.byState.archived).toBeUndefined();
    expect(await pendingIds('q')).toEqual([...s.retry].sort());
  });

  it('streams NDJSON progress, then the result', async () => {
    for (let i = 0; i < 1200; i++) await seedFailed(redis, { queue: 'q', type: 'big', state: 'archived', error: notFoundError('big') });
    const { contentType, lines } = await postNdjson(routes.rerun.POST, '/api/handler-not-found/rerun', { queue: 'q', taskType: 'big', states: ['archived'] });
    expect(contentType).toBe('application/x-ndjson');
    const progress = lines.slice(0, -1).map((l) => l.progress as RerunProgress);
    expect(progress.every((p) => p.state === 'archived')).toBe(true);
    expect(progress.filter((p) => p.phase === 'scanning').at(-1)).toEqual({ phase: 'scanning', state: 'archived', done: 1200, total: 1200 });
    const running = progress.filter((p) => p.phase === 'running');
    expect(running.length).toBeGreaterThan(2);
    expect(running.at(-1)).toEqual({ phase: 'running', state: 'archived', done: 1200, total: 1200 });
    expect(lines.at(-1)).toEqual({ result: { succeeded: 1200, failed: [], byState: { archived: { found: 1200, succeeded: 1200, failed: 0 } }, stopped: false } });
    expect(await redis.llen(k.pendingKey('q'))).toBe(1200);
  });

  it('forgets the triage scans, so the next read shows the group gone', async () => {
    await seedMixed();
    expect((await get(routes.notFound.GET, '/api/handler-not-found?queue=q')).body.groups.map((g: { taskType: string }) => g.taskType)).toEqual(['report:new', 'report:old']);
    await postJson(routes.rerun.POST, '/api/handler-not-found/rerun', { queue: 'q', taskType: 'report:new' });
    const after = await get(routes.notFound.GET, '/api/handler-not-found?queue=q');
    expect(after.body.groups).toHaveLength(1);
    expect(after.body.groups[0]).toMatchObject({ taskType: 'report:old', pending: 0 });
  });

  it('reports a task that left its state between finding and moving as failed, moving the rest', async () => {
    const s = await seedMixed();
    const moved = s.archived[1]!;
    let raced = false;
    const onProgress = (p: RerunProgress) => {
      if (raced || p.phase !== 'scanning' || p.done < p.total || p.state !== 'archived') return;
      raced = true;
      // Same connection, not awaited: Redis runs it before the move script that follows.
      void redis.multi().zrem(k.archivedKey('q'), moved).lpush(k.pendingKey('q'), moved).hset(k.taskKey('q', moved), 'state', 'pending').exec();
    };
    const r = await rerunNotFound(redis, 'q', 'report:new', ['archived'], { onProgress });
    expect(r.succeeded).toBe(2);
    expect(r.failed.map((f) => f.id)).toEqual([moved]);
    expect(r.failed[0]!.error.kind).toBe('failed_precondition');
  });

  it('answers 404 for an unknown queue and 400 for a bad body', async () => {
    const missing = await postJson(routes.rerun.POST, '/api/handler-not-found/rerun', { queue: 'nope', taskType: 't' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('queue_not_found');
    const streamed = await postJson(routes.rerun.POST, '/api/handler-not-found/rerun', { queue: 'nope', taskType: 't' }, { accept: 'application/x-ndjson' });
    expect(streamed.status).toBe(404);
    for (const body of [{ queue: 'q' }, { queue: 'q', taskType: 't', states: [] }, { queue: 'q', taskType: 't', states: ['pending'] }, { queue: 'q', taskType: 't', extra: 1 }, { queue: ' ', taskType: 't' }]) {
      const r = await postJson(routes.rerun.POST, '/api/handler-not-found/rerun', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe('invalid_argument');
    }
  });

  it('refuses other sites and non-JSON bodies, changing nothing', async () => {
    await seedMixed();
    const before = await snapshot(redis);
    const cross = await postJson(routes.rerun.POST, '/api/handler-not-found/rerun', { queue: 'q', taskType: 'report:new' }, { origin: 'http://evil.example' });
    expect(cross.status).toBe(403);
    expect(cross.body.error.code).toBe('forbidden');
    const form = await callRoute(routes.rerun.POST, '/api/handler-not-found/rerun', {}, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"queue":"q","taskType":"report:new"}' });
    expect(form.status).toBe(415);
    expect(await snapshot(redis)).toEqual(before);
  });
});
