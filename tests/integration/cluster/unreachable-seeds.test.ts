/**
 * A Redis Cluster of which no node answers, from the start: seeds that refuse. A Cluster client
 * keeps commands issued while it is not ready in a queue of its own, flushed only on success; with
 * endless reconnects a request would wait forever. Here every request must answer 503
 * redis_unavailable naming the cluster, fast.
 */
import { describe, expect, it } from 'vitest';
import { freePort } from '../../e2e/support/app-server';
import { expectClusterUnreachable } from './cluster-app';
import { get, post, report, timed, waitFor } from '../faults/helpers';
import { consoleRoutes } from '../../support/console-routes';

/** A refused connect takes a millisecond; an answer that waited for a timeout would take ≥ 2 s. */
const FAST_MS = 500;

describe('Redis Cluster unreachable from the start', () => {
  it('seeds that refuse from the start: every request answers 503 at once naming the cluster, reads and changes alike', async () => {
    const seeds = [await freePort(), await freePort()].map((p) => `127.0.0.1:${p}`).join(',');
    process.env.REDIS_URL = `redis://${seeds.split(',')[0]}`;
    process.env.ASYNQLENS_REDIS_CLUSTER_NODES = seeds;
    const r = await consoleRoutes();
    for (let i = 0; i < 3; i++) {
      const list = await timed(() => get(r.queues.GET));
      if (i === 0) report(`cluster seeds refusing: first queue list → 503 (${list.body.error.message})`, list.ms);
      expectClusterUnreachable(list, seeds);
      expect(list.body.error.message).toContain('last connection error');
      expect(list.ms).toBeLessThan(FAST_MS);
    }
    // ioredis says only "Failed to refresh slots cache."; a probe of the seeds finds the reason,
    // which the following requests name.
    const first = seeds.split(',')[0]!;
    const explained = await waitFor('the reason in the message', async () => {
      const res = await get(r.queues.GET);
      return res.body.error.message.includes(`no node of the cluster answered (${first}: connect ECONNREFUSED ${first}`);
    }, 5000);
    report('cluster seeds refusing: the reason named after', explained);

    const change = await timed(() => post(r.tasks.POST, { qname: 'q' }, { type: 't' }));
    report('cluster seeds refusing: enqueue → 503', change.ms);
    expectClusterUnreachable(change, seeds);
    expect(change.body.error.message).toContain('Nothing was changed');
    expect(change.ms).toBeLessThan(FAST_MS);

    // Probes answer too: readiness says unavailable, the scrape says redis_up 0 (so alerts fire).
    const health = await timed(() => get(r.health.GET));
    report('cluster seeds refusing: readiness → 503', health.ms);
    expect(health.status, JSON.stringify(health.body)).toBe(503);
    expect(health.ms).toBeLessThan(FAST_MS);
    const scrape = await timed(() => get(r.metrics.GET));
    report('cluster seeds refusing: metrics scrape → 200', scrape.ms);
    expect(scrape.status).toBe(200);
    expect(scrape.bytes.toString('utf8')).toMatch(/^asynqlens_redis_up 0$/m);
    expect(scrape.ms).toBeLessThan(FAST_MS);
  });

});
