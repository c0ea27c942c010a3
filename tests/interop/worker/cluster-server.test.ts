/**
 * Our task server on a private 3-master Redis Cluster, one queue on each master, judged by
 * asynq v0.26.0: the real Go client enqueues (cluster-seed), our Server — on the cluster client
 * the app itself builds with connect() — processes, and Go's Inspector (cluster-dump) reads the
 * outcomes, the server's heartbeat while it runs, and its absence after shutdown.
 *
 * Beyond Go's seed, each queue also gets, from our own client: a task with a result and a
 * retention (completed), one with a 1 s retention (then deleted by the janitor), one that fails
 * twice (retried, then archived) and one that runs until shutdown (seen as a worker by Go, then
 * requeued). The seed's two scheduled tasks are an hour out; their scores are moved (ZADD XX)
 * to now and about now + 3 s, so the forwarder has due work, and one task whose due second can
 * be checked against the moment it ran.
 */
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueTask } from '@/lib/asynq/client/enqueue';
import { connect, parseHostPort } from '@/lib/asynq/connection';
import * as k from '@/lib/asynq/keys';
import type { RedisClient } from '@/lib/asynq/redis-client';
import { Server } from '@/lib/asynq/worker';
import { queuesPerMaster } from '../../integration/cluster/cluster-app';
import { startRedisCluster, type RunningCluster } from '../../support/redis-cluster';
import type { GoDump } from '../go-dump';
import { goHarness } from '../go-harness';
import { clusterConfig, clusterMux, queueKeys, type Invocation, type QueueKeys, type ServerLogs } from './cluster-worker';

const asynqGo = goHarness('worker-cluster');
asynqGo.requireGo('our task server on a Redis Cluster');

/** Seeded by Go per queue (cluster.go runClusterSeed): label → task ID. */
type Seeded = Record<string, Record<'pending' | 'scheduled' | 'unique' | 'grouped' | 'failing', string>>;
/** Ours per queue. */
type Extra = Record<string, { result: string; expiring: string; retry: string; slow: string }>;

const SETTLE_TIMEOUT_MS = 15_000;
const payloadOf = (q: string) => JSON.stringify({ queue: q });
const lockOf = (q: string) => k.uniqueKey(q, 'ok:unique', Buffer.from(payloadOf(q)));
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe.skipIf(asynqGo.noGo)('our task server on a Redis Cluster, judged by asynq v0.26.0', () => {
  let cluster: RunningCluster;
  let redis: Cluster;
  let serverClient: RedisClient;
  let server: Server;
  let queues: string[];
  let seeded: Seeded;
  const extra: Extra = {};
  const log: Invocation[] = [];
  const logs: ServerLogs = { info: [], warn: [], error: [] };
  let dueSec = 0;
  const lockBefore: Record<string, string | null> = {};
  const lockAfter: Record<string, string | null> = {};
  const hashesLeft: Record<string, number> = {};
  let settled = false;
  let running: GoDump;
  let after: GoDump;
  const midKeys: Record<string, QueueKeys> = {};
  const afterKeys: Record<string, QueueKeys> = {};
  let midRegistry: unknown[] = [];
  let afterRegistry: unknown[] = [];

  const go = (cmd: string) => asynqGo.run(cmd, ['--nodes', cluster.nodesEnv, '--queues', queues.join(',')], { timeoutMs: 30_000 });
  const goDump = async () => JSON.parse(await go('cluster-dump')) as GoDump;

  /** Everything but the `slow:` task finished on every queue, and each group was aggregated. */
  const allDone = async () => {
    for (const q of queues) {
      const s = await queueKeys(redis, q);
      const finished = s.pending === 0 && s.active.length === 1 && s.scheduled === 0 && s.retry === 0 && s.archived === 2 && s.completed === 1;
      if (!finished || s.groups !== 0 || s.aggregationSets !== 0 || !log.some((i) => i.queue === q && i.type === 'aggregated')) return false;
    }
    return true;
  };

  /** Our server's heartbeat records: ZSCOREs in both registries, then EXISTS of both keys. */
  const registry = () => {
    const { host, pid, serverId } = server.id;
    const [sk, wk] = [k.serverInfoKey(host, pid, serverId), k.workersKey(host, pid, serverId)];
    return Promise.all([redis.zscore(k.ALL_SERVERS, sk), redis.zscore(k.ALL_WORKERS, wk), redis.exists(sk), redis.exists(wk)]);
  };

  beforeAll(async () => {
    const setupStart = Date.now();
    [cluster] = await Promise.all([startRedisCluster({ label: 'worker-cluster' }), asynqGo.bin()]);
    redis = cluster.client();
    queues = [...(await queuesPerMaster(redis, 'wq', 1)).values()].flat().sort();
    seeded = JSON.parse(await go('cluster-seed')) as Seeded;

    const now = new Date();
    dueSec = Math.floor(now.getTime() / 1000) + 3;
    for (const q of queues) {
      const add = (type: string, payload: string, options: Parameters<typeof enqueueTask>[2]) =>
        enqueueTask(redis, { type, payload: Buffer.from(payload) }, { ...options, queue: q }, now).then((t) => t.id);
      extra[q] = {
        result: await add('result:ts', `from-ts-${q}`, { retentionSeconds: 600 }),
        expiring: await add('result:short', 'z', { retentionSeconds: 1 }),
        retry: await add('fail:ts', 'x', { maxRetry: 1 }),
        slow: await add('slow:ts', 'y', {}),
      };
      // Both must already be there (XX) with another score (CH), or this counts fewer than 2.
      const moved = await redis.zadd(k.scheduledKey(q), 'XX', 'CH', dueSec - 3, seeded[q]!.unique, dueSec, seeded[q]!.scheduled);
      expect([q, moved]).toEqual([q, 2]);
      lockBefore[q] = await redis.get(lockOf(q));
    }

    // The client a Node service would build from ASYNQLENS_REDIS_CLUSTER_NODES.
    serverClient = connect({ kind: 'cluster', url: 'redis://127.0.0.1', nodes: cluster.nodes.map((n) => parseHostPort(n, 'nodes')) });
    server = new Server(serverClient, clusterConfig(queues, logs));
    const started = Date.now();
    await server.start(clusterMux(log));
    for (const end = started + SETTLE_TIMEOUT_MS; !(settled = await allDone()) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
    const processedMs = Date.now() - started;

    running = await goDump();
    for (const q of queues) midKeys[q] = await queueKeys(redis, q);
    midRegistry = await registry();

    const stopping = Date.now();
    await server.shutdown();
    const shutdownMs = Date.now() - stopping;

    after = await goDump();
    afterRegistry = await registry();
    for (const q of queues) {
      afterKeys[q] = await queueKeys(redis, q);
      lockAfter[q] = await redis.get(lockOf(q));
      const gone = [seeded[q]!.pending, seeded[q]!.scheduled, seeded[q]!.unique, seeded[q]!.grouped, extra[q]!.expiring];
      hashesLeft[q] = await redis.exists(...gone.map((id) => k.taskKey(q, id)));
    }
    console.log(
      `[cluster-server] queues ${queues.join(',')} on ${cluster.nodesEnv}: ${settled ? 'all processed' : 'NOT settled'} in ${processedMs} ms ` +
        `after start, shutdown ${shutdownMs} ms, setup to checks ${Date.now() - setupStart} ms, ${log.length} invocations`,
    );
  }, 120_000);

  afterAll(async () => {
    await server?.shutdown();
    await serverClient?.quit();
    await redis?.quit();
    await cluster?.stop();
  });

  it('runs every task of its queue, once per attempt, on every master: Go\'s seed, their headers, the due and the aggregated ones', () => {
    expect(queues).toHaveLength(3);
    for (const q of queues) {
      const s = seeded[q]!;
      const e = extra[q]!;
      const mine = log.filter((i) => i.queue === q);
      const runs = (id: string) => mine.filter((i) => i.id === id).map((i) => [i.type, i.retryCount]);
      expect({ q, runs: mine.length }).toEqual({ q, runs: 10 });
      expect(mine.find((i) => i.id === s.pending)).toMatchObject({ type: 'ok:go', payload: payloadOf(q), headers: { from: 'go' }, retryCount: 0 });
      expect([runs(s.failing), runs(s.scheduled), runs(s.unique), runs(s.grouped)]).toEqual([[['fail:go', 0]], [['ok:later', 0]], [['ok:unique', 0]], []]);
      expect([runs(e.result), runs(e.expiring), runs(e.retry), runs(e.slow)]).toEqual([[['result:ts', 0]], [['result:short', 0]], [['fail:ts', 0], ['fail:ts', 1]], [['slow:ts', 0]]]);
      // Forwarded when due, not before: the forwarder compares whole seconds, as asynq does.
      expect(mine.find((i) => i.id === s.scheduled)!.receivedAtMs).toBeGreaterThanOrEqual(dueSec * 1000);
      const agg = mine.filter((i) => i.type === 'aggregated');
      expect(agg.map((i) => i.payload)).toEqual([JSON.stringify([payloadOf(q)])]);
    }
    // No task was handed to a worker of another queue than its own.
    const home = new Map(queues.flatMap((q) => [...Object.values(seeded[q]!), ...Object.values(extra[q]!)].map((id) => [id, q] as const)));
    expect(log.filter((i) => i.type !== 'aggregated' && home.get(i.id) !== i.queue)).toEqual([]);
    expect(settled, `every queue settled within ${SETTLE_TIMEOUT_MS} ms`).toBe(true);
  });

  it('leaves the outcomes asynq leaves, as Go\'s Inspector reads them', () => {
    for (const q of queues) {
      const s = seeded[q]!;
      const e = extra[q]!;
      const t = after.tasks[q]!;
      const info = after.taskInfo[q]!;
      expect([t.pending.map((x) => x.id), t.completed.map((x) => x.id), t.archived.map((x) => x.id).sort(), after.groups[q]]).toEqual([[e.slow], [e.result], [s.failing, e.retry].sort(), []]);
      expect(info[s.failing]).toMatchObject({ type: 'fail:go', state: 'archived', retried: 0, maxRetry: 0, lastError: 'fail: fail:go' });
      expect(info[e.retry]).toMatchObject({ type: 'fail:ts', state: 'archived', retried: 1, maxRetry: 1, lastError: 'fail: fail:ts' });
      expect(info[e.result]).toMatchObject({ type: 'result:ts', state: 'completed', retentionSeconds: 600, resultBase64: b64(`done:from-ts-${q}`) });
      expect(info[e.slow]).toMatchObject({ type: 'slow:ts', state: 'pending', retried: 0, lastError: '' });
      for (const id of [s.failing, e.retry]) expect(info[id]!.lastFailedAt).toBeGreaterThan(0);
      expect(info[e.result]!.completedAt).toBeGreaterThan(0);
      // Succeeded without retention (Go's seed, the aggregated group member): deleted outright;
      // completed with a 1 s retention: deleted by the janitor soon after.
      expect({ q, hashesLeft: hashesLeft[q] }).toEqual({ q, hashesLeft: 0 });
      // The unique lock was the task's until it succeeded, and released then.
      expect({ q, before: lockBefore[q], after: lockAfter[q] }).toEqual({ q, before: s.unique, after: null });
      expect({ q, ...after.queueInfo[q] }).toMatchObject({ q, size: 4, pending: 1, active: 0, scheduled: 0, retry: 0, archived: 2, completed: 1, aggregating: 0, groups: 0, processedTotal: 9, failedTotal: 3 });
    }
  });

  it('is listed by Go\'s Inspector with its queues and in-flight tasks while it runs', () => {
    const ours = running.servers.find((x) => x.id === server.id.serverId);
    expect(ours).toMatchObject({ host: server.id.host, pid: process.pid, concurrency: 8, queues: Object.fromEntries(queues.map((q) => [q, 1])), strictPriority: false, status: 'active' });
    const workers = [...ours!.workers].sort((a, b) => a.queue.localeCompare(b.queue)).map((w) => [w.queue, w.taskId, w.taskType]);
    expect(workers).toEqual(queues.map((q) => [q, extra[q]!.slow, 'slow:ts']));
    for (const q of queues) {
      expect(running.tasks[q]!.active.map((x) => [x.id, x.isOrphaned])).toEqual([[extra[q]!.slow, false]]);
      expect({ q, active: midKeys[q]!.active, lease: midKeys[q]!.lease }).toEqual({ q, active: [extra[q]!.slow], lease: [extra[q]!.slow] });
    }
    expect([midRegistry[0] !== null, midRegistry[1] !== null, midRegistry[2], midRegistry[3]]).toEqual([true, true, 1, 1]);
  });

  it('after shutdown: gone from Go\'s Inspector, its records removed, nothing active, no lease left', () => {
    expect(after.servers.map((x) => x.id)).toEqual([]);
    expect(afterRegistry).toEqual([null, null, 0, 0]);
    for (const q of queues) {
      expect({ q, active: afterKeys[q]!.active, lease: afterKeys[q]!.lease, aggregationSets: afterKeys[q]!.aggregationSets }).toEqual({ q, active: [], lease: [], aggregationSets: 0 });
      expect(after.tasks[q]!.active).toEqual([]);
    }
  });

  it('reports no Redis error from any of its loops; its only warnings are the three requeues at shutdown', () => {
    expect(logs.error).toEqual([]);
    expect(logs.warn.sort()).toEqual(queues.map((q) => `quitting worker, task id=${extra[q]!.slow} goes back to its queue`).sort());
  });
});
