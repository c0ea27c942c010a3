/**
 * A Redis Cluster of which no node answers any more: every master SIGKILLed after it served. A
 * Cluster client keeps commands issued while it is not ready in a queue of its own, flushed only
 * on success; with endless reconnects a request would wait forever. Here every request must answer
 * 503 redis_unavailable naming the cluster, fast, and the console must recover by itself once the
 * masters are back.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startRedisCluster, type RunningCluster } from '../../support/redis-cluster';
import { expectClusterUnreachable, masterServes } from './cluster-app';
import { get, post, report, timed, waitFor } from '../faults/helpers';
import { consoleRoutes } from '../../support/console-routes';

/** A refused connect takes a millisecond; an answer that waited for a timeout would take ≥ 2 s. */
const FAST_MS = 500;
let cluster: RunningCluster | undefined;

afterAll(async () => {
  await cluster?.stop();
});

describe('Redis Cluster with every master down', () => {
  it('every master killed after it served: 503 at once while they are down, and the first requests after they return succeed', async () => {
    cluster = await startRedisCluster({ label: 'unreachable' });
    process.env.REDIS_URL = `redis://${cluster.nodes[0]}`;
    process.env.ASYNQLENS_REDIS_CLUSTER_NODES = cluster.nodesEnv;
    const r = await consoleRoutes();

    const seeded = await post(r.tasks.POST, { qname: 'alive' }, { type: 't' });
    expect(seeded.status, JSON.stringify(seeded.body)).toBe(201);
    expect((await get(r.queues.GET)).status).toBe(200);

    await Promise.all(cluster.nodes.map((_, i) => cluster!.kill(i)));
    for (let i = 0; i < 5; i++) {
      const res = await timed(() => get(r.queues.GET));
      if (i === 0) report('every master killed: queue list → 503', res.ms);
      expectClusterUnreachable(res, cluster.nodesEnv);
      expect(res.ms).toBeLessThan(FAST_MS);
    }
    const change = await timed(() => post(r.tasks.POST, { qname: 'alive' }, { type: 't' }));
    report('every master killed: enqueue → 503', change.ms);
    expectClusterUnreachable(change, cluster.nodesEnv);
    expect(change.ms).toBeLessThan(FAST_MS);

    await Promise.all(cluster.nodes.map((_, i) => cluster!.restart(i)));
    const back = await waitFor('every restarted master to serve', async () => (await Promise.all(cluster!.nodes.map(masterServes))).every(Boolean), 20_000);
    report('masters restarted: cluster_state:ok after', back);
    // Nothing was persisted, so the queue list is empty; it answers, without an app restart.
    const first = await timed(() => get(r.queues.GET));
    report(`first queue list after the masters returned → ${first.status}`, first.ms);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await post(r.tasks.POST, { qname: 'alive' }, { type: 't' });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  }, 60_000);
});
