/**
 * ASYNQLENS_READ_ONLY=1: every mutation answers 403 read_only and changes nothing; reads work.
 */
import { describe, expect, it } from 'vitest';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedZset } from '@/lib/asynq/testutil/seed';
import { callRoute, type Handler } from '../../support/call-route';
import { consoleRoutes } from '../../support/console-routes';
import { snapshot } from '../../support/redis-snapshot';
import { useReadOnlyRoutes } from '../../support/test-redis';

const DB = 4;
const redis = await useReadOnlyRoutes(DB);

describe('read-only mode', () => {
  it('refuses every mutation with 403 read_only and still serves reads', async () => {
    const m = newTaskMessage({ type: 't', queue: 'q' });
    await seedZset(redis, 'archived', m, 1);
    const before = await snapshot(redis);
    const r = await consoleRoutes();
    const json = { 'content-type': 'application/json' };
    const calls: [Handler, Record<string, string>, string, unknown?][] = [
      [r.tasks.POST, { qname: 'q' }, 'POST', { type: 't' }],
      [r.action.POST, { qname: 'q', taskId: m.id, action: 'run' }, 'POST', {}],
      [r.task.DELETE, { qname: 'q', taskId: m.id }, 'DELETE'],
      [r.task.PATCH, { qname: 'q', taskId: m.id }, 'PATCH', { payload: 'x' }],
      [r.reschedule.POST, { qname: 'q', taskId: m.id }, 'POST', { processAt: new Date(Date.now() + 60_000).toISOString() }],
      [r.bulk.POST, { qname: 'q' }, 'POST', { action: 'delete', state: 'archived' }],
      [r.pause.POST, { qname: 'q' }, 'POST', {}],
      [r.resume.POST, { qname: 'q' }, 'POST', {}],
      [r.queue.DELETE, { qname: 'q' }, 'DELETE'],
      [r.batch.POST, {}, 'POST', { items: [{ type: 't' }] }],
    ];
    for (const [handler, params, method, body] of calls) {
      const res = await callRoute(handler, '/api/x', params, { method, headers: json, body: body === undefined ? undefined : JSON.stringify(body) });
      expect(res.status, `${method} ${JSON.stringify(params)}`).toBe(403);
      expect(res.body.error.code).toBe('read_only');
    }
    expect(await snapshot(redis)).toEqual(before);
    const list = await callRoute(r.tasks.GET, '/api/queues/q/tasks?state=archived', { qname: 'q' });
    expect(list.status).toBe(200);
    expect(list.body.tasks[0].id).toBe(m.id);
    const health = await callRoute(r.health.GET, '/api/health');
    expect(health.body.readOnly).toBe(true);
  });
});
