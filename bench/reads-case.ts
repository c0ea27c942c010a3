/**
 * The read benchmark: round trips, commands and latency of the queue list, pending page 1 and
 * page 5,000 of a 1M-task queue, and one task's detail, ours next to asynq's Go Inspector on the
 * same data in the same run (performance note §4.3 O1, O3, O4; targets T1, T4, T6).
 */
import type { BenchCase, BenchContext, CaseResult } from './bench-case';
import { runGoReads, type GoOutcome } from './go-reads';
import { monitorOnce, timeRuns } from './measure';
import { loadOurReads, type OurReads, type Read, type ReadName } from './our-reads';
import { readsDataset, type ReadsDataset } from './reads-dataset';
import { readsTable, roundTripFailures, type OurRead } from './report';
import { seedBatches, SEED_CHUNK, type SeedStats } from './seed';
import { taskId, verifySeeded } from './task-message';

/** Text each read's response must contain, so a wrong page or an empty reply cannot pass. */
function expectations(d: ReadsDataset): Record<ReadName, string[]> {
  const n = d.big.count;
  const page5000 = 4999 * 20 + 1;
  return {
    queues: ['"bench:small:49"', `${n}`],
    page1: [taskId(d.big, 1), taskId(d.big, Math.min(20, n)), `${n}`],
    page5000: page5000 + 19 <= n ? [taskId(d.big, page5000), taskId(d.big, page5000 + 19)] : [],
    taskInfo: [d.detailId],
  };
}

async function checkRead(read: Read, wanted: readonly string[]): Promise<void> {
  const out = await read.run();
  const text = typeof out === 'string' ? out : JSON.stringify(out);
  const missing = wanted.filter((w) => !text.includes(w));
  if (missing.length > 0) throw new Error(`${read.name}: the response lacks ${missing.join(', ')}: ${text.slice(0, 300)}`);
}

async function measureOurs(ctx: BenchContext, ours: OurReads, d: ReadsDataset): Promise<OurRead[]> {
  const expected = expectations(d);
  const rows: OurRead[] = [];
  for (const read of ours.reads) {
    await checkRead(read, expected[read.name]);
    const timed = await timeRuns(ours.redis, read.run, ctx.iterations, ctx.warmup);
    const { commands, nested } = await monitorOnce(ctx.url, read.run);
    rows.push({ name: read.name, title: read.title, ...timed, commands, nested });
    console.log(`  ours ${read.name}: ${timed.roundTrips} round trips, ${commands.join(' ')}; p50 ${timed.p50Ms} ms, p95 ${timed.p95Ms} ms`);
  }
  return rows;
}

function seedLine(s: SeedStats): string {
  const rate = Math.round(s.tasks / (s.ms / 1000)).toLocaleString('en-US');
  return `${s.tasks.toLocaleString('en-US')} tasks in ${(s.ms / 1000).toFixed(2)} s (${rate} tasks/s), ` +
    `${s.calls} EVALSHA calls of ≤ ${SEED_CHUNK.toLocaleString('en-US')} tasks, slowest call ${s.maxCallMs.toFixed(1)} ms (client wall clock)`;
}

function section(d: ReadsDataset, seeded: string, memory: string, ours: OurReads, rows: OurRead[], go: GoOutcome): string {
  const goNote = go.ok
    ? `Go: \`interop-bin bench-reads\` (tests/go/bench.go), asynq v0.26.0 Inspector on go-redis; its round trips come from a go-redis hook (one per command, one per pipeline). Its \`queues\` read is \`Queues()\` + \`GetQueueInfo\` per queue, what asynqmon's queue list does.`
    : `**Go side not run: ${go.reason}.** Go's columns are n/a.`;
  const oursNote = ours.via === 'route handlers'
    ? 'Ours: the Next.js route handlers called in-process (zod parsing, DTO mapping and JSON included; no HTTP server; the shared snapshot cache off, `ASYNQLENS_SNAPSHOT_MS=0`, so every request reads Redis).'
    : `Ours: **the core calls the routes make** (\`inspector.queues()\`, \`.tasks()\`, \`.task()\`), because the route handlers could not be loaded: ${ours.fallbackReason ?? '?'}.`;
  return [
    '## Reads: queue list, pending pages, task detail',
    '',
    `- Dataset: ${d.summary}; Redis \`used_memory\` ${memory}`,
    `- Seeding (seed-tasks.lua, built server-side): ${seeded}`,
    `- ${oursNote} Round trips = writes to the client socket per request (ioredis sends a pipeline in one write); commands = top-level commands under MONITOR (script-internal ones counted apart).`,
    `- ${goNote}`,
    '',
    readsTable(rows, go),
    '',
  ].join('\n');
}

export const readsCase: BenchCase = {
  name: 'reads',
  async run(ctx): Promise<CaseResult> {
    const d = readsDataset(ctx.tasks);
    await ctx.admin.flushall();
    console.log(`seeding: ${d.summary}`);
    const seeded = seedLine(await seedBatches(ctx.admin, d.batches));
    console.log(`  ${seeded}`);
    for (const [batch, index] of d.samples) await verifySeeded(ctx.admin, batch, index);
    console.log(`  ${d.samples.length} sampled msgs match encodeTaskMessage byte for byte and decode as expected`);
    const memory = /used_memory_human:(\S+)/.exec(await ctx.admin.info('memory'))?.[1] ?? '?';
    const ours = await loadOurReads(ctx.url, d.big.queue, d.detailId);
    let rows: OurRead[];
    try {
      console.log(`measuring ours (${ours.via}), ${ctx.iterations} iterations per read`);
      if (ours.fallbackReason) console.log(`  NOTE: routes not loadable, measuring core calls: ${ours.fallbackReason}`);
      rows = await measureOurs(ctx, ours, d);
    } finally {
      ours.close();
    }
    console.log("measuring Go's inspector");
    const go = await runGoReads(ctx.port, d.big.queue, d.detailId, ctx.iterations);
    if (!go.ok) console.error(`\n${'#'.repeat(78)}\n##  WARNING: ${go.reason}.\n##  Go's columns are n/a; only our numbers are reported.\n${'#'.repeat(78)}\n`);
    return { markdown: section(d, seeded, memory, ours, rows, go), failures: roundTripFailures(rows, go) };
  },
};
