/**
 * asynq v0.26.0 and asynqlens on the same 3-master Redis Cluster (asynq.RedisClusterClientOpt
 * on the Go side, ASYNQLENS_REDIS_CLUSTER_NODES on ours), with one queue on each master:
 * what a Go client enqueues reads through our routes exactly as Go's Inspector reads it, and
 * what our API enqueues is processed by a Go server, with the outcomes visible through our routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRoute, type Handler } from '../support/call-route';
import { consoleRoutes, type ConsoleRoutes } from '../support/console-routes';
import { within } from '../support/within';
import { queuesPerMaster, send, startClusterApp, type ClusterApp } from '../integration/cluster/cluster-app';
import type { GoDump, GoTask } from './go-dump';
import { goHarness } from './go-harness';

const asynqGo = goHarness('cluster');
asynqGo.requireGo('Redis Cluster interop');

/** A GET through a route handler, bounded by {@link within}. */
const call = (h: Handler, path: string, params: Record<string, string>) => within(`GET ${Object.values(params).join('/')}${path}`, callRoute(h, path, params));

describe.skipIf(asynqGo.noGo)('asynq v0.26.0 and asynqlens on one Redis Cluster', () => {
  let app: ClusterApp;
  let queues: string[];
  let seeded: Record<string, Record<string, string>>;
  let r: ConsoleRoutes;

  const go = async (cmd: string, extra: string[] = []) => {
    return within(`go ${cmd}`, asynqGo.run(cmd, ['--nodes', app.cluster.nodesEnv, '--queues', queues.join(','), ...extra]), 45_000);
  };
  const goDump = async () => JSON.parse(await go('cluster-dump')) as GoDump;

  beforeAll(async () => {
    [app] = await Promise.all([startClusterApp('interop'), asynqGo.bin()]);
    queues = [...(await queuesPerMaster(app.redis, 'iq', 1)).values()].flat().sort();
    r = await consoleRoutes();
    seeded = JSON.parse(await go('cluster-seed')) as typeof seeded;
  }, 300_000);

  afterAll(() => app?.stop());

  it('reads what a Go client enqueued exactly as Go\'s Inspector does, on every master', async () => {
    const dump = await goDump();
    expect(dump.queues).toEqual(queues);
    for (const q of queues) {
      const info = dump.queueInfo[q]!;
      expect([info.pending, info.scheduled, info.aggregating]).toEqual([2, 2, 1]);
      const ours = (await call(r.queue.GET, '/', { qname: q })).body;
      expect({ q, ...ours }).toMatchObject({
        q, size: info.size, pending: info.pending, active: info.active, scheduled: info.scheduled, retry: info.retry,
        archived: info.archived, completed: info.completed, aggregating: info.aggregating, groups: info.groups,
      });
      for (const state of ['pending', 'scheduled'] as const) {
        const list = (await call(r.tasks.GET, `/?state=${state}`, { qname: q })).body;
        expect([q, state, list.tasks.map((t: { id: string }) => t.id)]).toEqual([q, state, dump.tasks[q]![state].map((t: GoTask) => t.id)]);
      }
      const grouped = (await call(r.tasks.GET, '/?state=aggregating&group=g1', { qname: q })).body;
      expect(grouped.tasks.map((t: { id: string }) => t.id)).toEqual(dump.tasks[q]!.aggregating.g1!.map((t) => t.id));
      expect((await call(r.groups.GET, '/', { qname: q })).body.groups).toEqual(dump.groups[q]!.map((g) => ({ group: g.group, size: g.size })));
      for (const [label, id] of Object.entries(seeded[q]!)) {
        const want = dump.taskInfo[q]![id]!;
        const t = (await call(r.task.GET, '/', { qname: q, taskId: id })).body;
        expect({ label, id: t.id, type: t.type, state: t.state, payload: Buffer.from(t.payload, 'utf8').toString('base64'), maxRetry: t.maxRetry, group: t.group ?? '', headers: t.headers }).toEqual({
          label, id: want.id, type: want.type, state: want.state, payload: want.payloadBase64, maxRetry: want.maxRetry, group: want.group, headers: want.headers,
        });
        if (want.nextProcessAt > 0 && want.state === 'scheduled') expect(Date.parse(t.nextProcessAt) / 1000).toBe(want.nextProcessAt);
        if (label === 'unique') expect(t.uniqueLock).toMatchObject({ holderId: id, ownedByThisTask: true });
      }
    }
  });

  it('has a Go server process what our API enqueued, and shows the outcomes', async () => {
    const ours: Record<string, { ok: string; fail: string }> = {};
    for (const q of queues) {
      const ok = await send(r.tasks.POST, 'POST', '/', { qname: q }, { type: 'result:ts', payload: `from-ts-${q}`, options: { retentionSeconds: 600 } });
      const fail = await send(r.tasks.POST, 'POST', '/', { qname: q }, { type: 'fail:ts', payload: 'x', options: { maxRetry: 0 } });
      expect([ok.status, fail.status]).toEqual([201, 201]);
      ours[q] = { ok: ok.body.id, fail: fail.body.id };
    }
    const lines = (await go('cluster-process', ['--seconds', '4'])).trim().split('\n').filter(Boolean);
    const invoked = new Set(lines.map((l) => (JSON.parse(l) as { id: string }).id));
    for (const q of queues) {
      for (const id of [ours[q]!.ok, ours[q]!.fail, seeded[q]!.pending!, seeded[q]!.failing!]) expect([q, id, invoked.has(id)]).toEqual([q, id, true]);
      const done = (await call(r.task.GET, '/', { qname: q, taskId: ours[q]!.ok })).body;
      expect(done).toMatchObject({ state: 'completed', result: `done:from-ts-${q}`, retentionSeconds: 600 });
      const failed = (await call(r.task.GET, '/', { qname: q, taskId: ours[q]!.fail })).body;
      expect(failed).toMatchObject({ state: 'archived', lastError: 'fail: fail:ts' });
      expect((await call(r.task.GET, '/', { qname: q, taskId: seeded[q]!.pending! })).status).toBe(404);
    }
    const dump = await goDump();
    for (const q of queues) {
      const ours2 = (await call(r.queue.GET, '/', { qname: q })).body;
      const info = dump.queueInfo[q]!;
      expect({ q, ...ours2 }).toMatchObject({ q, pending: info.pending, archived: info.archived, completed: info.completed, processedTotal: info.processedTotal, failedTotal: info.failedTotal });
      expect(info.archived).toBe(2);
      const archived = (await call(r.tasks.GET, '/?state=archived', { qname: q })).body;
      expect(archived.tasks.map((t: { id: string }) => t.id)).toEqual(dump.tasks[q]!.archived.map((t) => t.id));
    }
  });
});
