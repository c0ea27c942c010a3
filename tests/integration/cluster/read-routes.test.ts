/**
 * Every read route on a 3-master Redis Cluster, with 12 queues whose slots land on all three
 * masters: the app connects through ASYNQLENS_REDIS_CLUSTER_NODES and must answer exactly what
 * it answers on one server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys as k } from '@/lib/asynq';
import { json, newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedActive, seedAggregating, seedLock, seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import { seedScheduler, seedSchedulerEvent, seedServer } from '@/lib/asynq/testutil/seed-servers';
import { keySlot, queueSlot } from '@/lib/asynq/topology';
import type { TaskMessage } from '@/lib/asynq/types';
import { callRoute } from '../../support/call-route';
import { consoleRoutes, type ConsoleRoutes, type RoutesWith } from '../../support/console-routes';
import { ownerOf, queuesPerMaster, send, slotOwners, startClusterApp, type ClusterApp } from './cluster-app';

let app: ClusterApp;
let queues: string[];
let r: ConsoleRoutes;
const nowSec = () => Math.floor(Date.now() / 1000);
/** One task per state in queue `q`, returned by state. */
const seeded = new Map<string, Record<string, TaskMessage>>();

async function seedQueue(q: string, i: number): Promise<void> {
  const redis = app.redis;
  const t = (state: string, extra: Partial<TaskMessage> = {}) => newTaskMessage({ type: `job:${i % 3}`, queue: q, payload: json({ q, state }), ...extra });
  const tasks = {
    pending: t('pending'),
    active: t('active'),
    scheduled: t('scheduled'),
    retry: t('retry', { errorMsg: 'boom', retried: 1 }),
    archived: t('archived', { errorMsg: `handler not found for task "job:${i % 3}"` }),
    completed: t('completed'),
    aggregating: t('aggregating', { groupKey: 'g1' }),
  };
  await seedPending(redis, tasks.pending, BigInt(Date.now() - 5000) * 1_000_000n);
  await seedActive(redis, tasks.active);
  await seedZset(redis, 'scheduled', tasks.scheduled, nowSec() + 3600);
  await seedZset(redis, 'retry', tasks.retry, nowSec() + 60);
  await seedZset(redis, 'archived', tasks.archived, nowSec() - 60);
  await seedZset(redis, 'completed', tasks.completed, nowSec() + 3600);
  await seedAggregating(redis, tasks.aggregating);
  await redis.set(k.processedKey(q, new Date()), 10 + i);
  await redis.set(k.failedKey(q, new Date()), i);
  seeded.set(q, tasks);
}

beforeAll(async () => {
  app = await startClusterApp('read-routes');
  const byMaster = await queuesPerMaster(app.redis, 'rq', 4);
  queues = [...byMaster.values()].flat().sort();
  for (const [i, q] of queues.entries()) await seedQueue(q, i);
  // A unique task and its lock, an exact duplicate pair, servers, a scheduler.
  const q0 = queues[0]!;
  const unique = newTaskMessage({ type: 'uniq', queue: q0, payload: json({ n: 1 }), uniqueKey: k.uniqueKey(q0, 'uniq', json({ n: 1 })) });
  await seedPending(app.redis, unique);
  await seedLock(app.redis, unique.uniqueKey, unique.id, 600);
  for (let n = 0; n < 2; n++) await seedPending(app.redis, newTaskMessage({ type: 'dup', queue: q0, payload: json({ same: true }) }));
  const active = seeded.get(q0)!.active!;
  await seedServer(app.redis, {
    host: 'box', pid: 7, serverId: 'srv-1', concurrency: 10, queues: Object.fromEntries(queues.map((q) => [q, 1])),
    strictPriority: false, status: 'active', startedAt: new Date(), activeWorkerCount: 1,
  }, [{ host: 'box', pid: 7, serverId: 'srv-1', taskId: active.id, taskType: active.type, taskPayload: active.payload, queue: q0, startedAt: new Date(), deadline: new Date(Date.now() + 60_000) }]);
  await seedServer(app.redis, {
    host: 'box', pid: 8, serverId: 'srv-2', concurrency: 5, queues: { [q0]: 1 }, strictPriority: true, status: 'active', startedAt: new Date(), activeWorkerCount: 0,
  });
  await seedScheduler(app.redis, 'box:9:sched', [
    { id: 'entry-1', spec: '@every 1m', taskType: 'cron:a', taskPayload: json({}), enqueueOptions: [`Queue("${q0}")`], nextEnqueueAt: new Date(Date.now() + 60_000), prevEnqueueAt: null },
  ]);
  await seedSchedulerEvent(app.redis, 'entry-1', 'evt-task-1', new Date());
  r = await consoleRoutes();
}, 60_000);

afterAll(() => app?.stop());

const get = (name: RoutesWith<'GET'>, path: string, params: Record<string, string> = {}) => callRoute(r[name].GET, path, params);

describe('the test data', () => {
  it('spreads 12 queues over all three masters (keySlot checked against CLUSTER SLOTS)', async () => {
    const owners = await slotOwners(app.redis);
    const perOwner = new Map<string, number>();
    for (const q of queues) {
      expect(keySlot(k.pendingKey(q))).toBe(queueSlot(q));
      expect(await app.redis.cluster('KEYSLOT', k.pendingKey(q))).toBe(queueSlot(q));
      const owner = ownerOf(owners, queueSlot(q));
      perOwner.set(owner, (perOwner.get(owner) ?? 0) + 1);
    }
    expect(queues).toHaveLength(12);
    expect([...perOwner.values()]).toEqual([4, 4, 4]);
    expect(new Set(perOwner.keys())).toEqual(new Set(app.cluster.nodes));
  });
});

describe('queues', () => {
  it('lists every queue with its stats, whichever master holds it', async () => {
    const { status, body } = await get('queues', '/api/queues');
    expect(status).toBe(200);
    expect(body.queues.map((q: { queue: string }) => q.queue)).toEqual(queues);
    for (const [i, q] of queues.entries()) {
      const extra = i === 0 ? 3 : 0; // the unique task and the duplicate pair
      expect(body.queues[i]).toMatchObject({
        queue: q, problem: null, pending: 1 + extra, active: 1, scheduled: 1, retry: 1, archived: 1, completed: 1,
        aggregating: 1, groups: 1, size: 7 + extra, processed: 10 + i, failed: i,
      });
      expect(body.queues[i].latencySeconds).toBeGreaterThanOrEqual(4);
    }
  });

  it('reads one queue and its history', async () => {
    const q = queues[5]!;
    expect((await get('queue', `/api/queues/${q}`, { qname: q })).body).toMatchObject({ queue: q, pending: 1, processed: 15 });
    const { body } = await get('history', `/api/queues/${q}/history?days=3`, { qname: q });
    expect(body.days).toHaveLength(3);
    expect(body.days[0]).toMatchObject({ processed: 15, failed: 5 });
  });

  it('answers 404 for a queue that does not exist', async () => {
    expect((await get('queue', '/api/queues/nope', { qname: 'nope' })).status).toBe(404);
  });
});

describe('tasks', () => {
  it('lists every state of queues on every master', async () => {
    for (const q of queues) {
      for (const state of ['pending', 'active', 'scheduled', 'retry', 'archived', 'completed', 'aggregating']) {
        const { status, body } = await get('tasks', `/api/queues/${q}/tasks?state=${state}`, { qname: q });
        expect([q, state, status]).toEqual([q, state, 200]);
        const want = seeded.get(q)![state]!;
        expect(body.tasks.map((t: { id: string }) => t.id)).toContain(want.id);
        expect(body.tasks.find((t: { id: string }) => t.id === want.id)).toMatchObject({ state, queue: q, problem: null });
      }
    }
    const q = queues[7]!;
    const grouped = await get('tasks', `/api/queues/${q}/tasks?state=aggregating&group=g1`, { qname: q });
    expect(grouped.body.tasks.map((t: { id: string }) => t.id)).toEqual([seeded.get(q)!.aggregating!.id]);
  });

  it('reads a task, its payload and its unique lock', async () => {
    const q = queues[11]!;
    const m = seeded.get(q)!.retry!;
    const { body } = await get('task', `/api/queues/${q}/tasks/${m.id}`, { qname: q, taskId: m.id });
    expect(body).toMatchObject({ id: m.id, state: 'retry', lastError: 'boom', retried: 1 });
    const payload = await get('payload', `/`, { qname: q, taskId: m.id });
    expect(JSON.parse(payload.bytes.toString())).toEqual({ q, state: 'retry' });
    const q0 = queues[0]!;
    const list = await get('tasks', `/api/queues/${q0}/tasks?state=pending&size=100`, { qname: q0 });
    const uniq = list.body.tasks.find((t: { type: string }) => t.type === 'uniq');
    expect(uniq.uniqueLock).toMatchObject({ holderId: uniq.id, ownedByThisTask: true });
    expect(uniq.uniqueLock.ttlSeconds).toBeGreaterThan(500);
  });

  it('lists groups', async () => {
    const q = queues[3]!;
    expect((await get('groups', '/', { qname: q })).body).toEqual({ groups: [{ group: 'g1', size: 1 }] });
  });
});

describe('search', () => {
  it('finds tasks across every queue and master, by state, type and ID', async () => {
    const { status, body } = await get('search', '/api/tasks/search?state=retry&size=100');
    expect(status).toBe(200);
    expect(body.tasks.map((t: { queue: string }) => t.queue).sort()).toEqual(queues);
    const byType = await get('search', '/api/tasks/search?type=job:1&state=archived&size=100');
    expect(byType.body.tasks).toHaveLength(4);
    const id = seeded.get(queues[9]!)!.scheduled!.id;
    const byId = await get('search', `/api/tasks/search?id=${id}`);
    expect(byId.body.tasks.map((t: { id: string; queue: string }) => [t.id, t.queue])).toEqual([[id, queues[9]]]);
  });
});

describe('locks and duplicates', () => {
  it('lists a queue\'s locks from its master and every lock from every master', async () => {
    const q0 = queues[0]!;
    const one = await get('locks', '/', { qname: q0 });
    expect(one.status).toBe(200);
    expect(one.body.locks.map((l: { taskType: string }) => l.taskType)).toEqual(['uniq']);
    // A lock on each master, then page through the cluster-wide listing one lock at a time.
    const extra = queues.filter((_, i) => i % 4 === 1);
    for (const q of extra) await seedLock(app.redis, k.uniqueKey(q, 'other', null), 'gone-task', 600);
    const found: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 50; pages++) {
      const res = await callRoute(r.allLocks.GET, `/api/locks${cursor ? `?cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      found.push(...res.body.locks.map((l: { key: string }) => l.key));
      cursor = res.body.cursor;
      if (cursor === null) break;
      expect(cursor).toMatch(/^\d+$/);
    }
    expect(new Set(found)).toEqual(new Set([k.uniqueKey(q0, 'uniq', json({ n: 1 })), ...extra.map((q) => k.uniqueKey(q, 'other', null))]));
  });

  it('finds the duplicate pair', async () => {
    const q0 = queues[0]!;
    let body;
    for (let i = 0; i < 50; i++) {
      body = (await get('duplicates', `/api/queues/${q0}/duplicates`, { qname: q0 })).body;
      if (body.complete) break;
      await new Promise((res) => setTimeout(res, 50));
    }
    expect(body.complete).toBe(true);
    expect(body.groups.filter((g: { kind: string }) => g.kind === 'exact').map((g: { taskType: string; count: number }) => [g.taskType, g.count])).toEqual([['dup', 2]]);
  });

  it('pre-checks an enqueue against the held lock', async () => {
    const q0 = queues[0]!;
    const { status, body } = await send(r.check.POST, 'POST', '/', { qname: q0 }, { type: 'uniq', payload: '{"n":1}', unique: true });
    expect(status).toBe(200);
    expect(body.lock).toMatchObject({ held: true, holderState: 'pending' });
  });
});

describe('triage', () => {
  it('counts failures, handler-not-found groups and task types over every master', async () => {
    const failures = await get('failures', '/api/failures?wait=5000');
    expect(failures.status).toBe(200);
    expect(failures.body.complete).toBe(true);
    const notFound = await get('notFound', '/api/handler-not-found?wait=5000');
    expect(notFound.status).toBe(200);
    expect(notFound.body.groups.map((g: { queue: string }) => g.queue).sort()).toEqual(queues);
    const types = await get('taskTypes', '/api/task-types?wait=5000');
    expect(types.status).toBe(200);
    expect(types.body.queues.sort()).toEqual(queues);
    expect(types.body.complete).toBe(true);
  });

  it('explains routing (no Redis) and serves patterns', async () => {
    const res = await send(r.explain.POST, 'POST', '/api/routing/explain', {}, { patterns: ['job:'], taskTypes: ['job:1'] });
    expect(res.status).toBe(200);
    expect((await get('patterns', '/api/routing/patterns')).status).toBe(200);
  });
});

describe('servers, schedulers and Redis', () => {
  it('lists servers and their workers, each record in its own slot', async () => {
    const { status, body } = await get('servers', '/api/servers');
    expect(status).toBe(200);
    expect(body.servers.map((s: { id: string }) => s.id)).toEqual(['srv-1', 'srv-2']);
    expect(body.servers[0].workers.map((w: { taskId: string }) => w.taskId)).toEqual([seeded.get(queues[0]!)!.active!.id]);
  });

  it('lists scheduler entries and their events', async () => {
    const { body } = await get('schedulers', '/api/schedulers');
    expect(body.entries.map((e: { id: string }) => e.id)).toEqual(['entry-1']);
    const events = await get('events', '/', { entryId: 'entry-1' });
    expect(events.body.events.map((e: { taskId: string }) => e.taskId)).toEqual(['evt-task-1']);
  });

  it('shows INFO with the keyspace summed over the masters and one line per master', async () => {
    const { status, body } = await get('redis', '/api/redis');
    expect(status).toBe(200);
    expect(body.info.server.redis_mode).toBe('cluster');
    expect(Object.keys(body.info['cluster nodes']).sort()).toEqual([...app.cluster.nodes].sort());
    let total = 0;
    for (const m of app.cluster.masters()) {
      total += await m.dbsize();
      await m.quit();
    }
    expect(body.info.keyspace.db0).toBe(`keys=${total},expires=${/expires=(\d+)/.exec(body.info.keyspace.db0)?.[1]}`);
    const ranges = Object.values(body.info['cluster nodes'] as Record<string, string>).map((line) => /slots=(\S+)/.exec(line)?.[1]);
    expect(ranges.sort()).toEqual(['0-5460', '10922-16383', '5461-10921']);
  });

  it('reports health', async () => {
    const { status, body } = await get('health', '/api/health');
    expect(status).toBe(200);
    expect(body.redis).toBe('ok');
  });
});
