/**
 * Where a small read's time goes over HTTP, stage by stage, on the production build run by the
 * launcher (keep-alive, one socket, sequential, as a dashboard tab polls), two ways on the same
 * data: through Next (ASYNQLENS_API_LANE=off: Next's router, proxy.ts, Next's app route
 * machinery, then route()) and through the API lane (bin/api-lane.mjs: the launcher calls the
 * route's handler, route() does the checks). Each stage is the difference between two requests
 * that share everything before it:
 *
 *   Next's router        a missing file under /_next/static/: parsed, routed, answered 404,
 *                        never shown to proxy.ts or a route handler (the same both ways)
 *   around a handler     /api/health/live: everything but a read (through Next: the router,
 *                        proxy.ts and the route machinery; in the lane: the lane and route())
 *   read                 a task's detail (or a pending page) minus /api/health/live: route()'s
 *                        params, zod, the Redis gate, the Redis round trip, the DTO and JSON
 *
 * The rounds alternate between the apps and requests in small blocks, so load from other
 * processes on the machine falls on every stage alike; the load average is printed beside.
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
    const ways = [
      { name: 'through Next', app: await startApp(ctx.url, { ASYNQLENS_SNAPSHOT_MS: '0', ASYNQLENS_API_LANE: 'off' }) },
      { name: 'API lane', app: await startApp(ctx.url, { ASYNQLENS_SNAPSHOT_MS: '0' }) },
    ];
    const agents = ways.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
    const samples = ways.map(() => new Map<string, number[]>(REQUESTS.map(([name]) => [name, []])));
    try {
      for (const [w, way] of ways.entries()) for (const [, path] of REQUESTS) for (let i = 0; i < ctx.warmup; i++) await get(agents[w]!, `${way.app.url}${path}`);
      const load0 = loadavg()[0]!;
      for (let done = 0; done < ctx.iterations; done += BLOCK) {
        for (const [w, way] of ways.entries()) {
          for (const [name, path] of REQUESTS) {
            for (let i = 0; i < BLOCK; i++) samples[w]!.get(name)!.push(await get(agents[w]!, `${way.app.url}${path}`));
          }
        }
      }
      const p50 = samples.map((m) => new Map([...m].map(([name, ms]) => [name, percentile(ms.sort((a, b) => a - b), 50)])));
      const at = (w: number, name: string) => p50[w]!.get(name)!;
      const ms = (n: number) => n.toFixed(3);
      const row = (label: string, f: (w: number) => number, bold = false) => {
        const cells = ways.map((_, w) => (bold ? `**${ms(f(w))}**` : ms(f(w))));
        return `| ${bold ? `**${label}**` : label} | ${cells.join(' | ')} | ${(f(0) / Math.max(f(1), 0.001)).toFixed(1)}× |`;
      };
      const load = `load average ${load0.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`;
      const rows = [
        row("Next's router alone (static miss)", (w) => at(w, 'static miss')),
        row('around a handler that reads nothing (health/live)', (w) => at(w, 'health/live')),
        row('read: params, zod, Redis, DTO, JSON (task detail − health/live)', (w) => at(w, 'task detail') - at(w, 'health/live')),
        row('read: params, zod, Redis, DTO, JSON (pending page 1 − health/live)', (w) => at(w, 'pending page 1') - at(w, 'health/live')),
        row('task detail, total', (w) => at(w, 'task detail'), true),
        row('pending page 1, total', (w) => at(w, 'pending page 1'), true),
      ];
      for (const r of rows) console.log(`  ${r}`);
      console.log(`  ${load}`);
      const markdown = [
        '## Request budget over HTTP',
        '',
        `The production build through the launcher, keep-alive, one socket, sequential; p50 of ${samples[0]!.get('static miss')!.length} requests each, alternating in blocks of ${BLOCK}; ${load}. Through Next = \`ASYNQLENS_API_LANE=off\` (Next's router, proxy.ts and route machinery before route()); API lane = the launcher's default (bin/api-lane.mjs calls the route's handler). Each stage is the difference of two p50s (bench/request-budget-case.ts says which).`,
        '',
        `| stage | ${ways.map((w) => `${w.name}, p50 ms`).join(' | ')} | through Next / lane |`,
        '|---|---|---|---|',
        ...rows,
        '',
      ].join('\n');
      return { markdown, failures: [] };
    } finally {
      for (const a of agents) a.destroy();
      for (const way of ways) await way.app.stop();
    }
  },
};
