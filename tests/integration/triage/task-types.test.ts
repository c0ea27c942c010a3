/**
 * GET /api/task-types: every task type present, per queue and state, with counts.
 */
import { describe, expect, it } from 'vitest';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedActive, seedAggregating, seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import { consoleRoutes } from '../../support/console-routes';
import { get, nowSec, useTriageRedis } from './helpers';

const DB = 73;
const routes = await consoleRoutes();
const redis = await useTriageRedis(DB);

const zero = { pending: 0, active: 0, scheduled: 0, retry: 0, archived: 0, completed: 0, aggregating: 0 };

async function seedAll() {
  const m = (type: string, queue = 'a', over = {}) => newTaskMessage({ type, queue, ...over });
  for (let i = 0; i < 3; i++) await seedPending(redis, m('email:send'));
  await seedActive(redis, m('email:send'));
  await seedZset(redis, 'scheduled', m('report:new'), nowSec() + 60);
  await seedZset(redis, 'retry', m('report:new'), nowSec() + 60);
  await seedZset(redis, 'archived', m('report:new'), nowSec());
  await seedZset(redis, 'completed', m('email:send'), nowSec() + 60);
  await seedAggregating(redis, m('digest', 'a', { groupKey: 'g1' }));
  await seedAggregating(redis, m('digest', 'a', { groupKey: 'g2' }));
  await seedPending(redis, m('email:send', 'b'));
  await seedPending(redis, m('', 'b'));
}

describe('GET /api/task-types', () => {
  it('counts every type per queue and state, aggregation groups included', async () => {
    await seedAll();
    const r = await get(routes.taskTypes.GET, '/api/task-types');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ complete: true, scanned: 12, total: 12, skipped: 0, untracked: 0, queues: ['a', 'b'] });
    expect(r.body.states).toEqual(['pending', 'active', 'scheduled', 'retry', 'archived', 'completed', 'aggregating']);
    expect(r.body.types).toEqual([
      { queue: 'a', taskType: 'digest', counts: { ...zero, aggregating: 2 }, total: 2 },
      { queue: 'a', taskType: 'email:send', counts: { ...zero, pending: 3, active: 1, completed: 1 }, total: 5 },
      { queue: 'a', taskType: 'report:new', counts: { ...zero, scheduled: 1, retry: 1, archived: 1 }, total: 3 },
      { queue: 'b', taskType: '', counts: { ...zero, pending: 1 }, total: 1 },
      { queue: 'b', taskType: 'email:send', counts: { ...zero, pending: 1 }, total: 1 },
    ]);
  });

  it('filters by queue and states', async () => {
    await seedAll();
    const r = await get(routes.taskTypes.GET, '/api/task-types?queue=a&states=pending,scheduled');
    expect(r.body).toMatchObject({ queues: ['a'], states: ['pending', 'scheduled'], total: 4 });
    expect(r.body.types.map((t: { taskType: string; total: number }) => [t.taskType, t.total])).toEqual([['email:send', 3], ['report:new', 1]]);
    expect((await get(routes.taskTypes.GET, '/api/task-types?states=pending,bogus')).status).toBe(400);
    expect((await get(routes.taskTypes.GET, '/api/task-types?states=')).status).toBe(400);
    expect((await get(routes.taskTypes.GET, '/api/task-types?queue=zz')).status).toBe(404);
  });
});
