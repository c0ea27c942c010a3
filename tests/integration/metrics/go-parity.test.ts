/**
 * Our gauges against asynq's own numbers: real asynq v0.26.0 (tests/go `scenario`) builds
 * queues in every state, processes and fails tasks and pauses one; asynq's exporter publishes
 * what Inspector.GetQueueInfo returns, so every value we scrape must equal that, field by field
 * (the latency within the time between the two reads). The scheduler-fed `cron` queue changes
 * every second and is only checked for presence.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GoDump } from '../../interop/go-dump';
import { goHarness, redisArgs, type RunningScenario } from '../../interop/go-harness';
import { callRoute } from '../../support/call-route';
import { consoleRoutes } from '../../support/console-routes';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import { parseExposition, valueOf, type Parsed } from './parse-exposition';

const DB = 84;
const CRON = 'cron';
const PAUSED = 'low priority';
const asynqGo = goHarness('metrics');
asynqGo.requireGo('metrics parity with asynq');

describe.skipIf(asynqGo.noGo)('metrics equal what asynq reports', () => {
  let redis: Redis;
  let scenario: RunningScenario | undefined;
  let ours: Parsed;
  let go: GoDump;
  let gapSeconds: number;

  beforeAll(async () => {
    process.env.REDIS_URL = testRedisUrl(DB);
    process.env.ASYNQLENS_AUTH = 'none';
    redis = await openTestRedis(DB);
    scenario = await asynqGo.scenario(DB);
    expect(await asynqGo.json('inspect-op', redisArgs(DB), { stdin: { op: 'pauseQueue', queue: PAUSED } })).toMatchObject({ ok: true });
    const { metrics } = await consoleRoutes();
    const started = Date.now();
    const res = await callRoute(metrics.GET, '/api/metrics');
    expect(res.status).toBe(200);
    ours = parseExposition(res.bytes.toString('utf8'));
    go = await asynqGo.json<GoDump>('dump', redisArgs(DB));
    gapSeconds = (Date.now() - started) / 1000;
  }, 120_000);

  afterAll(async () => {
    await scenario?.stop();
    await redis?.quit();
  });

  it('lists the same queues', () => {
    const scraped = ours.samples.filter((s) => s.name === 'asynq_queue_size').map((s) => s.labels.queue);
    expect(scraped).toEqual(go.queues);
    expect(go.queues).toEqual(expect.arrayContaining(['default', 'work:main', 'agg', PAUSED, 'очередь-日本', CRON]));
  });

  it('has every gauge and counter equal to asynq Inspector.GetQueueInfo', () => {
    const stable = go.queues.filter((q) => q !== CRON);
    for (const queue of stable) {
      const info = go.queueInfo[queue]!;
      const v = (name: string, extra: Record<string, string> = {}) => valueOf(ours, name, { queue, ...extra });
      for (const state of ['active', 'pending', 'scheduled', 'retry', 'archived', 'completed'] as const) {
        expect(v('asynq_tasks_enqueued_total', { state }), `${queue} ${state}`).toBe(info[state]);
      }
      expect(v('asynq_queue_size'), `${queue} size`).toBe(info.size);
      expect(v('asynq_queue_paused_total'), `${queue} paused`).toBe(info.paused ? 1 : 0);
      expect(v('asynq_tasks_processed_total'), `${queue} processed`).toBe(info.processedTotal);
      expect(v('asynq_tasks_failed_total'), `${queue} failed`).toBe(info.failedTotal);
      expect(v('asynqlens_queue_aggregating_tasks'), `${queue} aggregating`).toBe(info.aggregating);
      const goLatency = info.latencyNs / 1e9;
      expect(Math.abs(v('asynq_queue_latency_seconds')! - goLatency), `${queue} latency ${goLatency}`).toBeLessThanOrEqual(gapSeconds + 0.01);
      // asynq samples MEMORY USAGE; we never run it, so the series is absent rather than wrong.
      expect(v('asynq_queue_memory_usage_approx_bytes')).toBeUndefined();
    }
    // The data exercises what matters: a pause, lifetime counters, aggregation, waiting tasks.
    expect(go.queueInfo[PAUSED]!.paused).toBe(true);
    expect(go.queueInfo['work:main']!.processedTotal).toBeGreaterThan(0);
    expect(go.queueInfo['work:main']!.failedTotal).toBeGreaterThan(0);
    expect(go.queueInfo.agg!.aggregating).toBeGreaterThan(0);
    expect(go.queueInfo.default!.latencyNs).toBeGreaterThan(0);
  });
});
