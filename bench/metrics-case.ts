/**
 * The metrics benchmark: what one Prometheus scrape of GET /api/metrics costs on the read
 * benchmark's dataset (1,000,000 pending tasks in one queue beside 50 small queues) — round
 * trips from our socket, commands from Redis' side (MONITOR per scrape, and INFO commandstats
 * over every timed scrape), Redis time, latency and response size — next to what asynq's own
 * exporter does per scrape (Queues() + GetQueueInfo per queue: Go's `queues` read).
 * Target: at most 3 round trips and 3 commands per scrape.
 */
import type { Redis } from 'ioredis';
import type { BenchCase, BenchContext, CaseResult } from './bench-case';
import { runGoReads, type GoOutcome } from './go-reads';
import { monitorOnce, timeRuns, type Timed } from './measure';
import { loadMetricsRoute, type MetricsRoute } from './metrics-route';
import { readsDataset } from './reads-dataset';
import { seedBatches } from './seed';
import { verifySeeded } from './task-message';

const MAX_TRIPS = 3;
const MONITORED_SCRAPES = 5;
const SCRAPE_COMMANDS = ['sscan', 'evalsha', 'eval', 'evalsha_ro', 'eval_ro'];

/** Calls and microseconds of the scrape's commands in INFO commandstats. */
async function commandStats(admin: Redis): Promise<{ calls: number; usec: number }> {
  const info = await admin.info('commandstats');
  let calls = 0;
  let usec = 0;
  for (const name of SCRAPE_COMMANDS) {
    const m = new RegExp(`^cmdstat_${name}:calls=(\\d+),usec=(\\d+),`, 'm').exec(info);
    calls += Number(m?.[1] ?? 0);
    usec += Number(m?.[2] ?? 0);
  }
  return { calls, usec };
}

interface Measured extends Timed {
  monitored: string[][];
  callsPerScrape: number;
  redisUsPerScrape: number;
  bytes: number;
  series: number;
}

async function measure(ctx: BenchContext, route: MetricsRoute, bigCount: number): Promise<Measured> {
  const body = await route.scrape();
  for (const want of [`asynq_queue_size{queue="bench:big"} ${bigCount}\n`, 'queue="bench:small:49"', 'asynqlens_redis_up 1\n']) {
    if (!body.includes(want)) throw new Error(`the scrape lacks ${JSON.stringify(want)}: ${body.slice(0, 300)}`);
  }
  for (let i = 0; i < ctx.warmup; i++) await route.scrape();
  const before = await commandStats(ctx.admin);
  const timed = await timeRuns(route.redis, route.scrape, ctx.iterations, 0);
  const after = await commandStats(ctx.admin);
  const monitored: string[][] = [];
  for (let i = 0; i < MONITORED_SCRAPES; i++) monitored.push((await monitorOnce(ctx.url, route.scrape)).commands);
  return {
    ...timed,
    monitored,
    callsPerScrape: (after.calls - before.calls) / ctx.iterations,
    redisUsPerScrape: (after.usec - before.usec) / ctx.iterations,
    bytes: Buffer.byteLength(body),
    series: body.split('\n').filter((l) => l !== '' && !l.startsWith('#')).length,
  };
}

function section(summary: string, m: Measured, iterations: number, go: GoOutcome): string {
  const maxCommands = Math.max(...m.monitored.map((c) => c.length));
  const g = go.ok ? go.reads.find((r) => r.name === 'queues') : undefined;
  const goRow = g
    ? `| asynq's exporter (x/metrics): \`Queues()\` + \`GetQueueInfo\` per queue | ${g.roundTrips === g.roundTripsMax ? g.roundTrips : `${g.roundTrips}–${g.roundTripsMax}`} | n/a | n/a | n/a | ${g.p50Ms.toFixed(3)} | ${g.p95Ms.toFixed(3)} | n/a |`
    : `| asynq's exporter | n/a (${go.ok ? 'no queues read' : go.reason}) | | | | | | |`;
  return [
    '## Metrics: what one Prometheus scrape costs',
    '',
    `- Dataset: ${summary} (the read benchmark's, seeded afresh)`,
    '- Ours: `GET /api/metrics` route handler called in-process (auth wrapper, the shared queue read, text rendering), shared snapshots off so every scrape reads Redis. ' +
      `Round trips = writes to the client socket per scrape, over ${iterations} scrapes; commands = top-level commands under MONITOR, ${MONITORED_SCRAPES} scrapes each watched on its own; ` +
      'calls and Redis time per scrape = INFO commandstats delta of SSCAN and the script commands (EVALSHA, EVAL and their read-only forms EVALSHA_RO, EVAL_RO) over the timed scrapes, divided by their number.',
    "- asynq's exporter: its collector calls `Inspector.Queues()` then `GetQueueInfo(q)` for every queue on each scrape, which is Go's `queues` read of `interop-bin bench-reads` (asynq v0.26.0, round trips from a go-redis hook), measured here on the same data.",
    '',
    '| Scrape | Round trips | Commands (MONITOR, max) | Calls per scrape (commandstats) | Redis µs per scrape | p50 ms | p95 ms | Response |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
    `| ours: \`GET /api/metrics\` | ${m.roundTrips === m.roundTripsMax ? m.roundTrips : `${m.roundTrips}–${m.roundTripsMax}`} | ${maxCommands} (\`${m.monitored[0]?.join(' ') ?? ''}\`) | ${m.callsPerScrape.toFixed(2)} | ${Math.round(m.redisUsPerScrape)} | ${m.p50Ms.toFixed(3)} | ${m.p95Ms.toFixed(3)} | ${m.bytes.toLocaleString('en-US')} B, ${m.series} series |`,
    goRow,
    '',
  ].join('\n');
}

export const metricsCase: BenchCase = {
  name: 'metrics',
  async run(ctx): Promise<CaseResult> {
    const d = readsDataset(ctx.tasks);
    await ctx.admin.flushall();
    console.log(`seeding: ${d.summary}`);
    await seedBatches(ctx.admin, d.batches);
    for (const [batch, index] of d.samples) await verifySeeded(ctx.admin, batch, index);
    const route = await loadMetricsRoute(ctx.url);
    console.log(`measuring GET /api/metrics, ${ctx.iterations} scrapes`);
    const m = await measure(ctx, route, d.big.count);
    console.log(`  ${m.roundTrips}–${m.roundTripsMax} round trips, ${m.monitored.map((c) => c.join(' ')).join(' | ')}; ` +
      `${m.callsPerScrape.toFixed(2)} calls and ${Math.round(m.redisUsPerScrape)} µs of Redis per scrape; p50 ${m.p50Ms} ms, p95 ${m.p95Ms} ms; ${m.bytes} B`);
    console.log("measuring asynq's exporter reads (Go's queues read)");
    const go = await runGoReads(ctx.port, d.big.queue, d.detailId, Math.min(ctx.iterations, 50));
    const failures: string[] = [];
    if (m.roundTripsMax > MAX_TRIPS) failures.push(`a scrape took ${m.roundTripsMax} round trips (target ≤ ${MAX_TRIPS})`);
    const worst = Math.max(...m.monitored.map((c) => c.length));
    if (worst > MAX_TRIPS) failures.push(`Redis saw ${worst} commands in one scrape (target ≤ ${MAX_TRIPS})`);
    if (m.callsPerScrape > MAX_TRIPS) failures.push(`commandstats: ${m.callsPerScrape} calls per scrape (target ≤ ${MAX_TRIPS})`);
    return { markdown: section(d.summary, m, ctx.iterations, go), failures };
  },
};
