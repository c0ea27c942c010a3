/**
 * Where a small read's time goes over HTTP, stage by stage, on the production build run by the
 * launcher (keep-alive, one socket, sequential, as a dashboard tab polls). Each stage is the
 * difference between two requests that share everything before it:
 *
 *   Next's router        a missing file under /_next/static/: parsed, routed, answered 404,
 *                        never shown to proxy.ts or a route handler
 *   proxy + route module /api/health/live minus that: proxy.ts (Next's interceptor adapter, our
 *                        Host rule, path and identity checks, security headers) and Next's app
 *                        route machinery around a handler that does nothing
 *   read                 a task's detail (or a pending page) minus /api/health/live: route()
 *                        (identity again, params, zod, the Redis gate), the Redis round trip,
 *                        the DTO and JSON
 *
 * The rounds alternate between the requests in small blocks, so load from other processes on
 * the machine falls on every stage alike; the load average is printed beside the figures.
 */
import http from 'node:http';
import { loadavg } from 'node:os';
import { startApp } from '../tests/e2e/support/app-server';
import type { BenchCase, CaseResult } from './bench-case';
import { percentile } from './measure';
import { seedBatches } from './seed';
import { buildIfStale } from './ui-app';

const QUEUE = 'budget';
const ID_FORMAT = 'b0d9e700-0000-4000-8000-%012d';
const TASK = ID_FORMAT.replace('%012d', '000000000005');
const BLOCK = 50;

const REQUESTS = [
  ['static miss', '/_next/static/missing.js'],
  ['health/live', '/api/health/live'],
  ['task detail', `/api/queues/${QUEUE}/tasks/${TASK}`],
  ['pending page 1', `/api/queues/${QUEUE}/tasks?state=pending&page=1&size=20`],
] as const;

function get(agent: http.Agent, url: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - t0));
      })
      .on('error', reject);
  });
}

export const requestBudgetCase: BenchCase = {
  name: 'request-budget',
  async run(ctx): Promise<CaseResult> {
    console.log(`  ${await buildIfStale()}`);
    await ctx.admin.flushall();
    await seedBatches(ctx.admin, [{ queue: QUEUE, state: 'pending', count: 1000, idFormat: ID_FORMAT }]);
    const app = await startApp(ctx.url, { ASYNQLENS_SNAPSHOT_MS: '0' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const samples = new Map<string, number[]>(REQUESTS.map(([name]) => [name, []]));
    try {
      for (const [, path] of REQUESTS) for (let i = 0; i < ctx.warmup; i++) await get(agent, `${app.url}${path}`);
      const load0 = loadavg()[0]!;
      for (let done = 0; done < ctx.iterations; done += BLOCK) {
        for (const [name, path] of REQUESTS) {
          for (let i = 0; i < BLOCK; i++) samples.get(name)!.push(await get(agent, `${app.url}${path}`));
        }
      }
      const p50 = new Map([...samples].map(([name, ms]) => [name, percentile(ms.sort((a, b) => a - b), 50)]));
      const at = (name: string) => p50.get(name)!;
      const ms = (n: number) => n.toFixed(3);
      const load = `load average ${load0.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`;
      const rows = [
        `| Next's router (static miss) | ${ms(at('static miss'))} |`,
        `| proxy.ts + Next's route module (health/live − static miss) | ${ms(at('health/live') - at('static miss'))} |`,
        `| read: route(), Redis, DTO, JSON (task detail − health/live) | ${ms(at('task detail') - at('health/live'))} |`,
        `| read: route(), Redis, DTO, JSON (pending page 1 − health/live) | ${ms(at('pending page 1') - at('health/live'))} |`,
        `| **task detail, total** | **${ms(at('task detail'))}** |`,
        `| **pending page 1, total** | **${ms(at('pending page 1'))}** |`,
      ];
      for (const row of rows) console.log(`  ${row}`);
      console.log(`  ${load}`);
      const markdown = [
        '## Request budget over HTTP',
        '',
        `The production build through the launcher, keep-alive, one socket, sequential; p50 of ${samples.get('static miss')!.length} requests each, alternating in blocks of ${BLOCK}; ${load}. Each stage is the difference of two p50s (bench/request-budget-case.ts says which).`,
        '',
        '| stage | p50 ms |',
        '|---|---|',
        ...rows,
        '',
      ].join('\n');
      return { markdown, failures: [] };
    } finally {
      agent.destroy();
      await app.stop();
    }
  },
};
