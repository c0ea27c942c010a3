/**
 * A real Prometheus server (the Debian binary) scrapes /metrics, served by the route in-process
 * behind a plain HTTP server, and loads the shipped alerting rules. Its HTTP API then answers
 * for asynq's queue metrics, hostile queue names included (a quote, a backslash, a line feed:
 * escaped in the exposition, whole again in Prometheus), and for the console's own metrics.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedPending } from '@/lib/asynq/testutil/seed';
import { useConsoleRoutes } from '../../support/console-routes';
import { prometheusBin } from '../../support/prometheus-bin';
import { waitFor } from '../../support/wait-for';
import { freePort } from '../../e2e/support/app-server';

const DB = 58;
const { redis, routes } = await useConsoleRoutes(DB, { flushEach: false });
const QUEUES = ['plain', 'we"ird', 'back\\slash', 'two\nlines', 'all\\"\n', 'очередь 🚀'];
const RULES = join(import.meta.dirname, '..', '..', '..', 'deploy', 'prometheus', 'asynq-alerts.yml');

let console_: Server;
let prometheus: ChildProcess;
let promUrl = '';
let promLog = '';
const dir = mkdtempSync(join(tmpdir(), 'asynqlens-prometheus-'));

/** The metrics route, as the launcher would serve it: a web Request in, its body streamed out. */
function serveMetrics(): Promise<number> {
  console_ = createServer((req, res) => {
    void (async () => {
      const answer = await routes.metrics.GET(new Request(`http://127.0.0.1${req.url}`, { headers: { accept: req.headers.accept ?? '*/*' } }), { params: Promise.resolve({}) });
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    })().catch((err: unknown) => {
      res.writeHead(500);
      res.end(String(err));
    });
  });
  return new Promise((resolve) => console_.listen(0, '127.0.0.1', () => resolve((console_.address() as { port: number }).port)));
}

beforeAll(async () => {
  await redis.flushdb();
  for (const [i, queue] of QUEUES.entries()) {
    for (let n = 0; n <= i; n++) await seedPending(redis, newTaskMessage({ type: 't', queue }));
  }
  const target = await serveMetrics();
  const port = await freePort();
  copyFileSync(RULES, join(dir, 'asynq-alerts.yml'));
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      'rule_files: [asynq-alerts.yml]',
      'scrape_configs:',
      '  - job_name: asynq',
      `    static_configs: [{ targets: ['127.0.0.1:${target}'] }]`,
      '',
    ].join('\n'),
  );
  prometheus = spawn(
    prometheusBin('prometheus'),
    [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  prometheus.stderr?.on('data', (c: Buffer) => (promLog = (promLog + c.toString()).slice(-4000)));
  promUrl = `http://127.0.0.1:${port}`;
  await waitFor('Prometheus to be ready', () => fetch(`${promUrl}/-/ready`).then((r) => r.ok, () => false), 30_000).catch((err: Error) => {
    throw new Error(`${err.message}\n${promLog}`);
  });
});

afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((r) => prometheus.once('exit', r));
    prometheus.kill('SIGTERM');
    await exited;
  }
  await new Promise((r) => console_?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

interface Vector {
  metric: Record<string, string>;
  value: [number, string];
}

async function query(promql: string): Promise<Vector[]> {
  const res = await fetch(`${promUrl}/api/v1/query?${new URLSearchParams({ query: promql })}`);
  const body = (await res.json()) as { status: string; data?: { result: Vector[] }; error?: string };
  if (body.status !== 'success') throw new Error(`${promql}: ${body.error}`);
  return body.data!.result;
}

/** Waits until `promql` has a result (the next scrapes land every second). */
const answered = (promql: string) => waitFor(`a result for ${promql}`, async () => ((await query(promql)).length > 0 ? query(promql) : null), 30_000);

describe('a real Prometheus scraping /metrics', () => {
  it('scrapes the console successfully and loads the alerting rules', async () => {
    const [up] = await answered('up{job="asynq"}');
    expect(up!.value[1]).toBe('1');
    const rules = (await (await fetch(`${promUrl}/api/v1/rules`)).json()) as { data: { groups: { name: string; rules: unknown[] }[] } };
    expect(rules.data.groups.map((g) => g.name)).toEqual(['asynq-queues', 'asynqlens']);
    expect(rules.data.groups.flatMap((g) => g.rules).length).toBe(8);
  });

  it.each(QUEUES.map((q, i) => [q, i + 1] as const))('keeps the queue name %j whole: asynq_queue_size is %i', async (queue, size) => {
    // A PromQL string takes Go's escapes, which JSON's match for these characters.
    const [series] = await answered(`asynq_queue_size{queue=${JSON.stringify(queue)}}`);
    expect(series!.metric).toEqual({ __name__: 'asynq_queue_size', job: 'asynq', instance: expect.stringMatching(/^127\.0\.0\.1:\d+$/), queue });
    expect(series!.value[1]).toBe(String(size));
  });

  it('holds the label values exactly, no more and no fewer', async () => {
    await answered('asynq_queue_size');
    const res = (await (await fetch(`${promUrl}/api/v1/label/queue/values?match[]=asynq_queue_size`)).json()) as { data: string[] };
    expect([...res.data].sort()).toEqual([...QUEUES].sort());
  });

  it("stores the console's own metrics", async () => {
    const [cpu] = await answered('asynqlens_process_cpu_seconds_total{job="asynq"}');
    expect(Number(cpu!.value[1])).toBeGreaterThan(0);
    // Its own scrapes, by route pattern: the rewrite Prometheus uses, /metrics, is /api/metrics.
    const [scrapes] = await answered('asynqlens_http_request_duration_seconds_count{route="/api/metrics",method="GET",status="200"}');
    expect(Number(scrapes!.value[1])).toBeGreaterThanOrEqual(1);
    const [age] = await answered('asynqlens_snapshot_age_seconds');
    expect(Number(age!.value[1])).toBeLessThan(30);
    const [sscan] = await answered('asynqlens_redis_command_duration_seconds_count{command="sscan"}');
    expect(Number(sscan!.value[1])).toBeGreaterThanOrEqual(1);
  });
});
