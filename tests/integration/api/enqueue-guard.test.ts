/**
 * What the enqueue console is told before and after it sends, against a real Redis: the
 * pre-check carries the fleet's routing verdict of (queue, type) (the one GET
 * /api/routing/verdicts gives), and a refusal by an archived task names it (queue, ID, type,
 * when archived, last error).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keys as k } from '@/lib/asynq';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedLock, seedZset } from '@/lib/asynq/testutil/seed';
import { callRoute, type Handler } from '../../support/call-route';
import { useConsoleRoutes } from '../../support/console-routes';

const DB = 67;
const file = join(mkdtempSync(join(tmpdir(), 'asynqlens-guard-')), 'routing.json');
writeFileSync(file, JSON.stringify({ groups: [{ name: 'billing', queues: ['billing'], patterns: ['invoice:'] }] }, null, 2));
const { redis, routes: r } = await useConsoleRoutes(DB, { env: { ASYNQLENS_ROUTING_FILE: file } });

const HEADERS = { 'content-type': 'application/json', origin: 'http://localhost' };
const post = (handler: Handler, params: Record<string, string>, body: unknown) =>
  callRoute(handler, '/api/x', params, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
const check = (q: string, body: unknown) => post(r.check.POST, { qname: q }, body);
const verdicts = (q: string, type: string) =>
  callRoute(r.verdicts.GET, `/api/routing/verdicts?queue=${encodeURIComponent(q)}&type=${encodeURIComponent(type)}&wait=0`);

describe('the pre-check carries the routing verdict', () => {
  it('warns for a type no declared handler on the queue takes, and says handled for one it does', async () => {
    await redis.sadd(k.ALL_QUEUES, 'billing');
    const bad = await check('billing', { type: 'report:daily' });
    expect(bad.status).toBe(200);
    expect(bad.body.routing).toMatchObject({ queue: 'billing', taskType: 'report:daily', verdict: 'not_handled' });
    expect(bad.body.routing.evidence.map((e: { kind: string }) => e.kind)).toContain('no_declared_route');
    const good = await check('billing', { type: 'invoice:send' });
    expect(good.body.routing).toMatchObject({ verdict: 'handled' });
    expect(good.body.routing.summary).toContain('billing');
  });

  it('is the verdict GET /api/routing/verdicts gives, word for word', async () => {
    for (const type of ['report:daily', 'invoice:send', 'odd "type"\n']) {
      const [pre, api] = await Promise.all([check('billing', { type }), verdicts('billing', type)]);
      expect(api.status).toBe(200);
      expect(pre.body.routing, type).toEqual(api.body.verdicts[0]);
    }
  });

  it('has no verdict for a blank type', async () => {
    expect((await check('billing', { type: '' })).body.routing).toBeNull();
  });
});

describe('a refusal by an archived task names it', () => {
  it('task_id_conflict: the archived task with its type, archive time and last error', async () => {
    const m = newTaskMessage({ type: 'invoice:send', queue: 'billing', id: 'inv-1', errorMsg: 'handler not found for task "invoice:send"', lastFailedAt: 1_790_000_000 });
    await seedZset(redis, 'archived', m, 1_790_000_100);
    await redis.sadd(k.ALL_QUEUES, 'billing');
    const res = await post(r.tasks.POST, { qname: 'billing' }, { type: 'invoice:send', options: { taskId: 'inv-1' } });
    expect(res.status).toBe(409);
    expect(res.body.error.existing).toEqual({
      id: 'inv-1',
      queue: 'billing',
      state: 'archived',
      archived: {
        archivedAt: new Date(1_790_000_100_000).toISOString(),
        type: 'invoice:send',
        lastError: 'handler not found for task "invoice:send"',
        lastFailedAt: new Date(1_790_000_000_000).toISOString(),
      },
    });
  });

  it('reads no msg over 1 MiB to describe it: the task and its archive time are still named', async () => {
    const m = newTaskMessage({ type: 'big', queue: 'billing', id: 'big-1', payload: Buffer.alloc(1024 * 1024 + 1, 7), errorMsg: 'boom' });
    await seedZset(redis, 'archived', m, 1_790_000_100);
    const res = await post(r.tasks.POST, { qname: 'billing' }, { type: 'big', options: { taskId: 'big-1' } });
    expect(res.body.error.existing).toEqual({
      id: 'big-1', queue: 'billing', state: 'archived',
      archived: { archivedAt: new Date(1_790_000_100_000).toISOString(), type: '', lastError: '', lastFailedAt: null },
    });
  });

  it('duplicate_task: the lock holder, its state, and the same description when it is archived', async () => {
    const lock = k.uniqueKey('billing', 'invoice:send', Buffer.from('p'));
    const m = newTaskMessage({ type: 'invoice:send', queue: 'billing', id: 'holder', uniqueKey: lock, errorMsg: 'boom' });
    await seedZset(redis, 'archived', m, 1_790_000_100);
    await seedLock(redis, lock, 'holder', 600);
    const res = await post(r.tasks.POST, { qname: 'billing' }, { type: 'invoice:send', payload: 'p', options: { uniqueTtlSeconds: 60 } });
    expect(res.status).toBe(409);
    expect(res.body.error.lock).toMatchObject({
      key: lock,
      holderId: 'holder',
      holderState: 'archived',
      holderArchived: { type: 'invoice:send', lastError: 'boom', archivedAt: new Date(1_790_000_100_000).toISOString(), lastFailedAt: null },
    });
    // A live holder is named with its state and no archive description.
    await redis.hset(k.taskKey('billing', 'holder'), 'state', 'pending');
    const live = await post(r.tasks.POST, { qname: 'billing' }, { type: 'invoice:send', payload: 'p', options: { uniqueTtlSeconds: 60 } });
    expect(live.body.error.lock).toMatchObject({ holderId: 'holder', holderState: 'pending', holderArchived: null });
  });
});
