/**
 * GET /api/metrics against a seeded Redis: the exact text Prometheus receives (asynq's metric
 * names, help texts, types and labels), label escaping of arbitrary queue names, and the
 * Content-Type of format 0.0.4.
 */
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { keys as k } from '@/lib/asynq';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedActive, seedAggregating, seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import pkg from '@/package.json' with { type: 'json' };
import { callRoute } from '../../support/call-route';
import { consoleRoutes } from '../../support/console-routes';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import { parseExposition, splitScrape, valueOf } from './parse-exposition';

const DB = 80;
const NOW = Date.parse('2026-03-14T15:09:26.000Z');
const ns = (ms: number) => BigInt(ms) * 1_000_000n;
let redis: Redis;

beforeAll(async () => {
  process.env.REDIS_URL = testRedisUrl(DB);
  process.env.ASYNQLENS_AUTH = 'none';
  redis = await openTestRedis(DB);
});
afterAll(() => redis.quit());
beforeEach(async () => {
  await redis.flushdb();
  // Only Date is frozen, so the queue latency is exact; ioredis' timers keep running.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

async function scrape() {
  const { GET } = (await consoleRoutes()).metrics;
  const res = await callRoute(GET, '/api/metrics');
  // The asynq exposition; the console's own metrics after it are tested in telemetry.test.ts.
  return { ...res, text: splitScrape(res.bytes.toString('utf8')).asynq };
}

/** The scrape duration is the one value that cannot be known in advance. */
const fixDuration = (text: string) => text.replace(/^asynqlens_scrape_duration_seconds (\S+)$/m, 'asynqlens_scrape_duration_seconds D');

describe('GET /api/metrics', () => {
  it("writes asynq's queue metrics exactly as asynq's exporter names them", async () => {
    const t = (queue: string, extra = {}) => newTaskMessage({ type: 'email:send', queue, ...extra });
    const nowSec = NOW / 1000;
    // critical: every state, oldest pending waiting 12.5 s, lifetime counters.
    await seedPending(redis, t('critical'), ns(NOW - 12_500));
    await seedPending(redis, t('critical'), ns(NOW - 2_000));
    await seedActive(redis, t('critical'));
    await seedZset(redis, 'scheduled', t('critical'), nowSec + 60);
    await seedZset(redis, 'retry', t('critical'), nowSec + 60);
    await seedZset(redis, 'retry', t('critical'), nowSec + 90);
    await seedZset(redis, 'archived', t('critical'), nowSec - 60);
    await seedZset(redis, 'completed', t('critical'), nowSec + 3600);
    await redis.set(k.processedTotalKey('critical'), '1234567');
    await redis.set(k.failedTotalKey('critical'), '89');
    // default: paused, one pending.
    await seedPending(redis, t('default'), ns(NOW - 1_000));
    await redis.set(k.pausedKey('default'), String(nowSec - 30));
    // batch: only aggregating tasks, which asynq counts in the size but in no state.
    await seedAggregating(redis, t('batch', { groupKey: 'g1' }));
    await seedAggregating(redis, t('batch', { groupKey: 'g1' }));
    await seedAggregating(redis, t('batch', { groupKey: 'g2' }));

    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(fixDuration(res.text)).toBe(
      [
        '# HELP asynq_queue_latency_seconds Number of seconds the oldest pending task is waiting in pending state to be processed.',
        '# TYPE asynq_queue_latency_seconds gauge',
        'asynq_queue_latency_seconds{queue="batch"} 0',
        'asynq_queue_latency_seconds{queue="critical"} 12.5',
        'asynq_queue_latency_seconds{queue="default"} 1',
        '# HELP asynq_queue_paused_total Number of queues paused',
        '# TYPE asynq_queue_paused_total gauge',
        'asynq_queue_paused_total{queue="batch"} 0',
        'asynq_queue_paused_total{queue="critical"} 0',
        'asynq_queue_paused_total{queue="default"} 1',
        '# HELP asynq_queue_size Number of tasks in a queue',
        '# TYPE asynq_queue_size gauge',
        'asynq_queue_size{queue="batch"} 3',
        'asynq_queue_size{queue="critical"} 8',
        'asynq_queue_size{queue="default"} 1',
        '# HELP asynq_tasks_enqueued_total Number of tasks enqueued; broken down by queue and state.',
        '# TYPE asynq_tasks_enqueued_total gauge',
        'asynq_tasks_enqueued_total{queue="batch",state="active"} 0',
        'asynq_tasks_enqueued_total{queue="batch",state="archived"} 0',
        'asynq_tasks_enqueued_total{queue="batch",state="completed"} 0',
        'asynq_tasks_enqueued_total{queue="batch",state="pending"} 0',
        'asynq_tasks_enqueued_total{queue="batch",state="retry"} 0',
        'asynq_tasks_enqueued_total{queue="batch",state="scheduled"} 0',
        'asynq_tasks_enqueued_total{queue="critical",state="active"} 1',
        'asynq_tasks_enqueued_total{queue="critical",state="archived"} 1',
        'asynq_tasks_enqueued_total{queue="critical",state="completed"} 1',
        'asynq_tasks_enqueued_total{queue="critical",state="pending"} 2',
        'asynq_tasks_enqueued_total{queue="critical",state="retry"} 2',
        'asynq_tasks_enqueued_total{queue="critical",state="scheduled"} 1',
        'asynq_tasks_enqueued_total{queue="default",state="active"} 0',
        'asynq_tasks_enqueued_total{queue="default",state="archived"} 0',
        'asynq_tasks_enqueued_total{queue="default",state="completed"} 0',
        'asynq_tasks_enqueued_total{queue="default",state="pending"} 1',
        'asynq_tasks_enqueued_total{queue="default",state="retry"} 0',
        'asynq_tasks_enqueued_total{queue="default",state="scheduled"} 0',
        '# HELP asynq_tasks_failed_total Number of tasks failed; broken down by queue',
        '# TYPE asynq_tasks_failed_total counter',
        'asynq_tasks_failed_total{queue="batch"} 0',
        'asynq_tasks_failed_total{queue="critical"} 89',
        'asynq_tasks_failed_total{queue="default"} 0',
        '# HELP asynq_tasks_processed_total Number of tasks processed (both succeeded and failed); broken down by queue',
        '# TYPE asynq_tasks_processed_total counter',
        'asynq_tasks_processed_total{queue="batch"} 0',
        'asynq_tasks_processed_total{queue="critical"} 1234567',
        'asynq_tasks_processed_total{queue="default"} 0',
        '# HELP asynqlens_build_info The running asynqlens version; always 1.',
        '# TYPE asynqlens_build_info gauge',
        `asynqlens_build_info{version="${pkg.version}"} 1`,
        '# HELP asynqlens_queue_aggregating_tasks Number of tasks waiting in aggregation groups (counted in asynq_queue_size, absent from asynq_tasks_enqueued_total); sampled when a queue has many groups.',
        '# TYPE asynqlens_queue_aggregating_tasks gauge',
        'asynqlens_queue_aggregating_tasks{queue="batch"} 3',
        'asynqlens_queue_aggregating_tasks{queue="critical"} 0',
        'asynqlens_queue_aggregating_tasks{queue="default"} 0',
        '# HELP asynqlens_redis_up Whether this scrape could read Redis (1) or not (0).',
        '# TYPE asynqlens_redis_up gauge',
        'asynqlens_redis_up 1',
        '# HELP asynqlens_scrape_duration_seconds Seconds this scrape took to read Redis and build the metrics.',
        '# TYPE asynqlens_scrape_duration_seconds gauge',
        'asynqlens_scrape_duration_seconds D',
        '',
      ].join('\n'),
    );
    const duration = valueOf(parseExposition(res.text), 'asynqlens_scrape_duration_seconds');
    expect(duration).toBeGreaterThan(0);
    expect(duration).toBeLessThan(5);
  });

  it('with no queues, writes only its own metrics', async () => {
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(fixDuration(res.text)).not.toMatch(/^asynq_/m);
    expect(valueOf(parseExposition(res.text), 'asynqlens_redis_up')).toBe(1);
  });

  it('escapes backslash, double quote and line feed in queue names, and keeps unicode as is', async () => {
    const names = ['a"b', 'back\\slash', 'new\nline', 'all\\"\n', 'очередь-日本 🚀', 'x} 1', 'braces{a="b"}'];
    for (const [i, queue] of names.entries()) {
      for (let n = 0; n <= i; n++) await seedPending(redis, newTaskMessage({ type: 't', queue }));
    }
    const { text } = await scrape();
    expect(text).toContain('asynq_queue_size{queue="a\\"b"} 1\n');
    expect(text).toContain('asynq_queue_size{queue="back\\\\slash"} 2\n');
    expect(text).toContain('asynq_queue_size{queue="new\\nline"} 3\n');
    expect(text).toContain('asynq_queue_size{queue="all\\\\\\"\\n"} 4\n');
    expect(text).toContain('asynq_queue_size{queue="очередь-日本 🚀"} 5\n');
    expect(text).toContain('asynq_tasks_enqueued_total{queue="x} 1",state="pending"} 6\n');
    expect(text).toContain('asynq_queue_size{queue="braces{a=\\"b\\"}"} 7\n');
    // Every line is one sample or one comment: a raw line feed would have split one.
    const parsed = parseExposition(text);
    for (const [i, queue] of names.entries()) expect(valueOf(parsed, 'asynq_queue_size', { queue })).toBe(i + 1);
    expect(parsed.samples.filter((s) => s.name === 'asynq_queue_size')).toHaveLength(names.length);
  });
});
