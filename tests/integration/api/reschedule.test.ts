/**
 * POST /api/queues/{q}/tasks/{id}/reschedule on a real Redis: the task's score in its own zset
 * moves and nothing else does; every refusal (state, time bounds, missing task) changes
 * nothing. Its audit record: tests/integration/auth/roles-audit.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { keys as k } from '@/lib/asynq';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedActive, seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import { callRoute } from '../../support/call-route';
import { useConsoleRoutes } from '../../support/console-routes';
import { snapshot } from '../../support/redis-snapshot';

const DB = 37;
const { redis, routes: r } = await useConsoleRoutes(DB);

const reschedule = (id: string, body: unknown, qname = 'q') =>
  callRoute(r.reschedule.POST, `/api/queues/${qname}/tasks/${id}/reschedule`, { qname, taskId: id }, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const nowS = () => Math.floor(Date.now() / 1000);
const isoAt = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');

describe('rescheduling a task', () => {
  it.each(['scheduled', 'retry'] as const)('moves a %s task’s score in its own set and leaves its hash and lock as they were', async (state) => {
    const m = newTaskMessage({ type: 't', queue: 'q', uniqueKey: k.uniqueKey('q', 't', null) });
    const other = newTaskMessage({ type: 't', queue: 'q' });
    await seedZset(redis, state, m, nowS() + 3600);
    await seedZset(redis, state, other, nowS() + 7200);
    await redis.set(m.uniqueKey, m.id, 'EX', 5000);
    const before = await snapshot(redis);
    const at = nowS() + 600;

    const res = await reschedule(m.id, { processAt: isoAt(at) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: m.id, state, nextProcessAt: isoAt(at) });
    const after = await snapshot(redis);
    const zset = `asynq:{q}:${state}`;
    expect(await redis.zscore(zset, m.id)).toBe(String(at));
    // Everything but that one score is byte for byte the same.
    expect({ ...after, [zset]: null }).toEqual({ ...before, [zset]: null });
    expect(await redis.zscore(zset, other.id)).toBe((before[zset] as string[])[3]);
    expect(await redis.zcard(zset)).toBe(2);
  });

  it('takes a time a moment in the past (the forwarder then moves it at once) and whole seconds', async () => {
    const m = newTaskMessage({ type: 't', queue: 'q' });
    await seedZset(redis, 'scheduled', m, nowS() + 3600);
    const at = Date.now() - 30_000 + 0.7;
    expect((await reschedule(m.id, { processAt: new Date(at).toISOString() })).status).toBe(200);
    expect(Number(await redis.zscore('asynq:{q}:scheduled', m.id))).toBe(Math.floor(at / 1000));
  });

  it('refuses a time out of bounds or not a time with 400 naming processAt, and changes nothing', async () => {
    const m = newTaskMessage({ type: 't', queue: 'q' });
    await seedZset(redis, 'scheduled', m, nowS() + 3600);
    const before = await snapshot(redis);
    for (const body of [
      { processAt: isoAt(nowS() - 600) },
      { processAt: isoAt(nowS() + 366 * 86_400) },
      { processAt: 'tomorrow' },
      {},
      { processAt: isoAt(nowS() + 60), state: 'retry' },
    ]) {
      const res = await reschedule(m.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_argument');
      if ('processAt' in body && !('state' in body)) expect(res.body.error.field, JSON.stringify(body)).toBe('processAt');
    }
    expect((await reschedule(m.id, { processAt: isoAt(nowS() - 600) })).body.error.message).toMatch(/^processAt: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC is in the past/);
    expect(await snapshot(redis)).toEqual(before);
  });

  it('refuses a task in any other state with 409 and its state, and a missing task or queue with 404', async () => {
    const pending = newTaskMessage({ type: 't', queue: 'q' });
    const active = newTaskMessage({ type: 't', queue: 'q' });
    const archived = newTaskMessage({ type: 't', queue: 'q' });
    await seedPending(redis, pending);
    await seedActive(redis, active);
    await seedZset(redis, 'archived', archived, nowS());
    // A hash that says scheduled, with no entry in the set: ZADD XX must not add one.
    const stray = newTaskMessage({ type: 't', queue: 'q' });
    await seedZset(redis, 'scheduled', stray, nowS() + 60);
    await redis.zrem('asynq:{q}:scheduled', stray.id);
    const before = await snapshot(redis);
    const body = { processAt: isoAt(nowS() + 60) };
    for (const [m, state] of [[pending, 'pending'], [active, 'active'], [archived, 'archived']] as const) {
      const res = await reschedule(m.id, body);
      expect(res.status, state).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'failed_precondition', state });
    }
    expect((await reschedule(stray.id, body)).status).toBe(409);
    expect((await reschedule('nope', body)).body.error.code).toBe('task_not_found');
    expect((await reschedule(pending.id, body, 'no-such-queue')).body.error.code).toBe('queue_not_found');
    expect(await snapshot(redis)).toEqual(before);
  });
});
