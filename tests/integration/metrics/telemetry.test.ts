/**
 * The console's own metrics in /metrics (lib/server/telemetry): process and event-loop health,
 * request latency labelled by route pattern (never by the path that carries a queue name), Redis
 * call latency and failures, and the age of the queue stats; the whole scrape, asynq part
 * included, passes Prometheus' own `promtool check metrics`.
 */
import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedPending } from '@/lib/asynq/testutil/seed';
import { API_ROUTES } from '@/lib/server/http/api-routes';
import { telemetry } from '@/lib/server/telemetry/registry';
import { instrumentRedis } from '@/lib/server/telemetry/redis';
import { callRoute } from '../../support/call-route';
import { useConsoleRoutes } from '../../support/console-routes';
import { prometheusBin } from '../../support/prometheus-bin';
import { testRedisUrl } from '../../support/test-redis';
import { waitFor } from '../../support/wait-for';
import { parseExposition, splitScrape, valueOf } from './parse-exposition';

const DB = 53;
const { redis, routes } = await useConsoleRoutes(DB);
const HOSTILE = 'we"ird\\q\nx';

async function scrape() {
  const res = await callRoute(routes.metrics.GET, '/api/metrics');
  expect(res.status).toBe(200);
  return res.bytes.toString('utf8');
}

describe("the console's own metrics", () => {
  it('follow the asynq exposition, with process, event-loop, request, Redis and snapshot families', async () => {
    await seedPending(redis, newTaskMessage({ type: 't', queue: HOSTILE }));
    const detail = await callRoute(routes.queue.GET, `/api/queues/${encodeURIComponent(HOSTILE)}`, { qname: HOSTILE });
    expect(detail.status).toBe(200);
    expect((await callRoute(routes.queues.GET, '/api/queues')).status).toBe(200);
    const text = await scrape();
    const { asynq, telemetry: own } = splitScrape(text);
    expect(valueOf(parseExposition(asynq), 'asynq_queue_size', { queue: HOSTILE })).toBe(1);
    const p = parseExposition(own);
    for (const family of ['asynqlens_process_cpu_seconds_total', 'asynqlens_process_resident_memory_bytes', 'asynqlens_nodejs_eventloop_lag_p99_seconds', 'asynqlens_nodejs_heap_size_used_bytes']) {
      expect(p.samples.some((s) => s.name === family), family).toBe(true);
    }
    // Requests by route pattern: the queue's own route, once, under its pattern.
    const count = (route: string) => valueOf(p, 'asynqlens_http_request_duration_seconds_count', { route, method: 'GET', status: '200' });
    expect(count('/api/queues/[qname]')).toBe(1);
    expect(count('/api/queues')).toBeGreaterThanOrEqual(1);
    const routeLabels = new Set(p.samples.filter((s) => s.name.startsWith('asynqlens_http_')).map((s) => s.labels.route));
    expect([...routeLabels].filter((r) => !API_ROUTES.includes(r!))).toEqual([]);
    expect(own).not.toContain('weird');
    // Redis calls, by command: the queue list's SSCAN and stats script.
    expect(valueOf(p, 'asynqlens_redis_command_duration_seconds_count', { command: 'sscan' })).toBeGreaterThan(0);
    // ioredis' CLIENT SETINFO on connect, refused by Redis before 7.2, is no failure.
    expect(valueOf(p, 'asynqlens_redis_command_errors_total', { command: 'client', kind: 'reply' })).toBeUndefined();
    // The stats were just read.
    expect(valueOf(p, 'asynqlens_snapshot_age_seconds')).toBeLessThan(5);
    expect(p.type.get('asynqlens_http_request_duration_seconds')).toBe('histogram');
  });

  it('pass promtool check metrics, asynq names aside', async () => {
    const text = await scrape();
    const r = spawnSync(prometheusBin('promtool'), ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 30_000 });
    // promtool lints as well as parses. The only findings allowed are names kept for the
    // dashboards written for them: asynq exporter's two gauges ending in _total, and
    // prom-client's standard Node gauges that do the same.
    const findings = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.trim() !== '');
    const known = /^(asynq_(tasks_enqueued|queue_paused)|asynqlens_nodejs_active_(handles|requests|resources))_total non-counter metrics should not have "_total" suffix$/;
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.filter((l) => !known.test(l))).toEqual([]);
    expect(r.error).toBeUndefined();
  });

  it('time every Redis command and count failures by kind', async () => {
    const client = new Redis(testRedisUrl(DB), { lazyConnect: true });
    instrumentRedis(client);
    const t = telemetry();
    const before = async (command: string, kind: string) => (await t.redisErrors.get()).values.find((v) => v.labels.command === command && v.labels.kind === kind)?.value ?? 0;
    const wrongType = await before('get', 'reply');
    const observed = async (command: string) =>
      (await t.redisDuration.get()).values.find((v) => v.metricName === 'asynqlens_redis_command_duration_seconds_count' && v.labels.command === command)?.value ?? 0;
    const hsets = await observed('hset');
    try {
      await client.hset('telemetry:h', 'f', 'v');
      await expect(client.get('telemetry:h')).rejects.toThrow(/WRONGTYPE/);
      // Pipelined commands go through the same sendCommand.
      await client.pipeline().hset('telemetry:h', 'g', 'w').hset('telemetry:h', 'k', 'x').exec();
      expect(await observed('hset')).toBe(hsets + 3);
      expect(await before('get', 'reply')).toBe(wrongType + 1);
    } finally {
      client.disconnect();
    }
  });

  it('count connection errors, and commands sent on a connection that is gone', async () => {
    const t = telemetry();
    const errors = (await t.redisConnectionErrors.get()).values[0]?.value ?? 0;
    // A port nothing listens on (port 1 on loopback): refused at once, never retried.
    const client = new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    instrumentRedis(client);
    await client.connect().catch(() => undefined);
    await waitFor('a connection error', async () => ((await t.redisConnectionErrors.get()).values[0]?.value ?? 0) > errors);
    await expect(client.get('k')).rejects.toThrow();
    // The client gave up (no retries): "Connection is closed", a lost connection.
    const refused = (await t.redisErrors.get()).values.find((v) => v.labels.command === 'get' && v.labels.kind === 'lost');
    expect(refused?.value).toBeGreaterThanOrEqual(1);
    client.disconnect();
  });
});
