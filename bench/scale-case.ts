/**
 * Thousands of queues: at 200, 1,000, 5,000 and 25,000 queues of 3 tasks each (one pending,
 * one scheduled, one retry), over HTTP against the production build served by the launcher:
 *  - `GET /api/queues` (no parameters: every queue up to 1,000, else the first 1,000 with the
 *    total) and a page of 50 sorted by size, read cold (the shared snapshot expired, so the
 *    time includes the Redis read) and warm (served from the snapshot);
 *  - `GET /metrics`, cold;
 *  - Redis' side of those reads: the stats script calls (INFO commandstats) and the longest
 *    call of any client (SLOWLOG, threshold 200 µs);
 *  - the server's RSS after each size, and its peak.
 * The overview's render time at these sizes is the UI case's.
 */
import type { Redis } from 'ioredis';
import type { BenchCase, BenchContext, CaseResult } from './bench-case';
import { startCallLog, stopCallLog, SLOW_MS } from './slowlog';
import { seedScaleQueues } from './scale-seed';
import { listeningPid, peakRssMb, rssMb } from './server-rss';
import { buildIfStale, startDefaultApp, unpinForChildren } from './ui-app';

export const SCALE_SIZES = [200, 1000, 5000, 25_000] as const;
/** Cold samples per read: each waits out the shared snapshot (1 s by default) first. */
const COLD_SAMPLES = 3;
const WARM_SAMPLES = 5;
const SNAPSHOT_WAIT_MS = 1_100;
/** The targets: every answer within a second at 25,000 queues, RSS ≤ 200 MB at 5,000. */
const ANSWER_MS = 1000;
const RSS_TARGET_MB = 200;

interface Timed {
  ms: number;
  bytes: number;
}

async function timedGet(url: string): Promise<Timed> {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = Buffer.from(await res.arrayBuffer());
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status} ${body.subarray(0, 300).toString()}`);
  return { ms, bytes: body.length };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function cold(url: string): Promise<Timed> {
  const runs: Timed[] = [];
  for (let i = 0; i < COLD_SAMPLES; i++) {
    await sleep(SNAPSHOT_WAIT_MS);
    runs.push(await timedGet(url));
  }
  return { ms: median(runs.map((r) => r.ms)), bytes: runs[0]!.bytes };
}

async function warm(url: string): Promise<Timed> {
  await timedGet(url);
  const runs: Timed[] = [];
  for (let i = 0; i < WARM_SAMPLES; i++) runs.push(await timedGet(url));
  return { ms: median(runs.map((r) => r.ms)), bytes: runs[0]!.bytes };
}

/** Calls and Redis µs of the read-only script command since the last RESETSTAT. */
async function statsScriptCalls(admin: Redis): Promise<{ calls: number; usec: number }> {
  const m = /^cmdstat_evalsha_ro:calls=(\d+),usec=(\d+)/m.exec(await admin.info('commandstats'));
  return { calls: Number(m?.[1] ?? 0), usec: Number(m?.[2] ?? 0) };
}

interface SizeResult {
  queues: number;
  apiCold: Timed;
  apiWarm: Timed;
  pageCold: Timed;
  metricsCold: Timed;
  /** Stats script calls of one cold /api/queues read, and their Redis time. */
  scriptCalls: number;
  scriptUs: number;
  maxCallUs: number;
  maxCall: string;
  slowCalls: number;
  rssMb: number;
  peakMb: number;
}

async function measureSize(ctx: BenchContext, base: string, pid: number, queues: number): Promise<SizeResult> {
  await ctx.admin.flushall();
  const t0 = performance.now();
  await seedScaleQueues(ctx.admin, queues);
  console.log(`  ${queues} queues seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // One cold read alone, to count its script calls.
  await sleep(SNAPSHOT_WAIT_MS);
  const saved = await startCallLog(ctx.admin);
  await timedGet(`${base}/api/queues`);
  const one = await statsScriptCalls(ctx.admin);
  const apiCold = await cold(`${base}/api/queues`);
  const apiWarm = await warm(`${base}/api/queues`);
  const pageCold = await cold(`${base}/api/queues?sort=size&order=desc&size=50`);
  const metricsCold = await cold(`${base}/metrics`);
  const log = await stopCallLog(ctx.admin, saved);
  const r: SizeResult = {
    queues, apiCold, apiWarm, pageCold, metricsCold, scriptCalls: one.calls, scriptUs: one.usec,
    maxCallUs: log.maxUs, maxCall: log.maxCall, slowCalls: log.slow, rssMb: rssMb(pid), peakMb: peakRssMb(pid),
  };
  console.log(
    `  /api/queues cold ${r.apiCold.ms.toFixed(0)} ms ${kb(r.apiCold.bytes)} KB, warm ${r.apiWarm.ms.toFixed(1)} ms; page ${r.pageCold.ms.toFixed(0)} ms ${kb(r.pageCold.bytes)} KB; ` +
      `/metrics ${r.metricsCold.ms.toFixed(0)} ms ${kb(r.metricsCold.bytes)} KB; ${r.scriptCalls} script calls (${(r.scriptUs / 1000).toFixed(1)} ms Redis), ` +
      `longest call ${(r.maxCallUs / 1000).toFixed(2)} ms; RSS ${r.rssMb.toFixed(0)} MB (peak ${r.peakMb.toFixed(0)})`,
  );
  return r;
}

const kb = (b: number) => (b / 1024).toFixed(b < 10_240 ? 1 : 0);
const ms = (x: number) => (x < 10 ? x.toFixed(1) : x.toFixed(0));

async function run(ctx: BenchContext): Promise<CaseResult> {
  const build = await buildIfStale();
  const cores = unpinForChildren();
  const app = await startDefaultApp(ctx.url);
  const results: SizeResult[] = [];
  let load = '';
  try {
    const pid = listeningPid(Number(new URL(app.url).port));
    for (const n of SCALE_SIZES) results.push(await measureSize(ctx, app.url, pid, n));
    load = (await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(', ');
  } finally {
    await app.stop();
    cores.restore();
    await ctx.admin.flushall();
  }
  const failures: string[] = [];
  const at = (n: number) => results.find((r) => r.queues === n)!;
  const big = at(25_000);
  for (const [what, t] of [['/api/queues', big.apiCold], ['/api/queues page', big.pageCold], ['/metrics', big.metricsCold]] as const) {
    if (t.ms > ANSWER_MS) failures.push(`${what} at 25,000 queues took ${ms(t.ms)} ms, target ≤ ${ANSWER_MS} ms`);
  }
  for (const r of results) if (r.slowCalls > 0) failures.push(`${r.queues} queues: ${r.slowCalls} Redis calls of ${SLOW_MS} ms or more (longest ${(r.maxCallUs / 1000).toFixed(2)} ms, ${r.maxCall})`);
  if (at(5000).rssMb > RSS_TARGET_MB) failures.push(`RSS ${at(5000).rssMb.toFixed(0)} MB after 5,000 queues, target ≤ ${RSS_TARGET_MB} MB`);
  const markdown = [
    '## Scale: thousands of queues (API, metrics, Redis calls, RSS)',
    '',
    `- App: ${build}, through the launcher, ${cores.note}; load average at the end ${load} (2 cores, shared).`,
    `- Data: N queues of 3 tasks each (pending, scheduled, retry), seeded inside Redis (bench/scale-seed.ts). One app process for every size, in this order: its RSS accumulates what the earlier sizes left.`,
    `- Cold: the median of ${COLD_SAMPLES} reads, each ${SNAPSHOT_WAIT_MS} ms after the last so the shared snapshot has expired (the time includes the Redis read). Warm: median of ${WARM_SAMPLES} reads of a fresh snapshot. Over HTTP from this process (fetch), the whole body read.`,
    `- Script calls: EVALSHA_RO calls of one cold \`/api/queues\` (INFO commandstats), all of them the stats script, and Redis' own time in them. Longest call: SLOWLOG (threshold 200 µs) over every read of the size, any client. Target: no call ≥ ${SLOW_MS} ms.`,
    '',
    '| queues | `/api/queues` cold | warm | bytes | page of 50 by size, cold | bytes | `/metrics` cold | bytes | stats script calls (Redis ms) | longest Redis call | RSS after (peak) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.queues.toLocaleString('en-US')} | ${ms(r.apiCold.ms)} ms | ${ms(r.apiWarm.ms)} ms | ${kb(r.apiCold.bytes)} KB | ${ms(r.pageCold.ms)} ms | ${kb(r.pageCold.bytes)} KB | ${ms(r.metricsCold.ms)} ms | ${kb(r.metricsCold.bytes)} KB | ${r.scriptCalls} (${(r.scriptUs / 1000).toFixed(1)}) | ${(r.maxCallUs / 1000).toFixed(2)} ms | ${r.rssMb.toFixed(0)} MB (${r.peakMb.toFixed(0)}) |`,
    ),
    '',
    `- Before this work (one stats script over every queue, the whole list in every answer), on this machine: at 5,000 queues \`/api/queues\` sent 1.7 MB in 334 ms, \`/metrics\` 3.3 MB in 429 ms, RSS reached 707 MB.`,
    '',
  ].join('\n');
  return { markdown, failures };
}

export const scaleCase: BenchCase = { name: 'scale', run };
