/**
 * The read benchmark: the queue list, pending page 1 and page 5,000 of a big queue, and one
 * task's detail, timed over HTTP on our production server and on Go's (a net/http server over
 * asynq v0.26.0's Inspector, tests/go/inspectorserver.go) on the same Redis, the same data, in
 * the same run, with the same client; next to them, routes that never touch Redis, for each
 * server's per-request floor. Redis round trips and commands are counted in-process on both
 * sides (our route handlers, Go's `bench-reads`), where each client's traffic can be seen
 * (performance note §4.3 O1, O3, O4; targets T1, T4, T6).
 */
import { loadavg } from 'node:os';
import type { BenchCase, BenchContext, CaseResult } from './bench-case';
import { runGoReads, type GoOutcome } from './go-reads';
import { keepAliveClient } from './http-client';
import { startGoServer, startOurServer } from './http-servers';
import { timeGets, type HttpTiming, type Target } from './http-timing';
import { monitorOnce, socketWriteCounter } from './measure';
import { loadOurReads, type OurReads, type Read, type ReadName } from './our-reads';
import { readsDataset, type ReadsDataset } from './reads-dataset';
import { floorTable, readsTable, roundTripFailures, type FloorRow, type ReadCounts, type ReadRow } from './report';
import { seedBatches, SEED_CHUNK, type SeedStats } from './seed';
import { taskId, verifySeeded } from './task-message';

/** Counted runs per read after one uncounted (which loads scripts). */
const COUNTED_RUNS = 5;

const FLOOR: { what: string; path: string; status: number }[] = [
  { what: 'liveness route (ours: `route()` with no Redis gate, through the API lane; Go: a ServeMux handler)', path: '/api/health/live', status: 200 },
  { what: 'missing static file (ours: Next\'s static 404; Go: ServeMux\'s 404)', path: '/_next/static/missing.js', status: 404 },
];

/**
 * Text each read's response must contain, on both servers, so a wrong page or an empty reply
 * cannot pass. Go's page carries no total (asynq's List*Tasks returns none); ours must.
 */
function expectations(d: ReadsDataset): { both: Record<ReadName, string[]>; ours: Partial<Record<ReadName, string[]>> } {
  const n = d.big.count;
  const page5000 = 4999 * 20 + 1;
  return {
    both: {
      queues: ['"bench:small:49"', `${n}`],
      page1: [taskId(d.big, 1), taskId(d.big, Math.min(20, n))],
      page5000: page5000 + 19 <= n ? [taskId(d.big, page5000), taskId(d.big, page5000 + 19)] : [],
      taskInfo: [d.detailId],
    },
    ours: { page1: [`"total":${n}`], page5000: [`"total":${n}`] },
  };
}

function lacks(text: string, wanted: readonly string[]): string[] {
  return wanted.filter((w) => !text.includes(w));
}

/** Our Redis traffic per read, from the route handlers in this process. */
async function countOurs(ctx: BenchContext, ours: OurReads, d: ReadsDataset): Promise<ReadCounts[]> {
  const { both, ours: oursOnly } = expectations(d);
  const rows: ReadCounts[] = [];
  for (const read of ours.reads) {
    const out = await read.run();
    const text = typeof out === 'string' ? out : JSON.stringify(out);
    const missing = lacks(text, [...both[read.name], ...(ours.via === 'route handlers' ? (oursOnly[read.name] ?? []) : [])]);
    if (missing.length > 0) throw new Error(`${read.name}: the response lacks ${missing.join(', ')}: ${text.slice(0, 300)}`);
    const trips = await countTrips(ours, read);
    const { commands, nested } = await monitorOnce(ctx.url, read.run);
    rows.push({ name: read.name, path: read.path, ...trips, commands, nested });
    console.log(`  ours ${read.name}: ${trips.roundTrips} round trips, ${commands.join(' ')}`);
  }
  return rows;
}

async function countTrips(ours: OurReads, read: Read): Promise<{ roundTrips: number; roundTripsMax: number }> {
  const counter = socketWriteCounter(ours.redis);
  const trips: number[] = [];
  try {
    for (let i = 0; i < COUNTED_RUNS; i++) {
      counter.take();
      await read.run();
      trips.push(counter.take());
    }
  } finally {
    counter.restore();
  }
  return { roundTrips: trips[0]!, roundTripsMax: Math.max(...trips) };
}

/** Checks each server's reply to `path` once, then times it on all of them. */
async function timeRead(ctx: BenchContext, targets: Target[], path: string, wanted: string[][]): Promise<HttpTiming[]> {
  for (const [i, { client }] of targets.entries()) {
    const reply = await client.get(path);
    const missing = lacks(reply.body, wanted[i] ?? []);
    if (reply.status !== 200 || missing.length > 0) {
      throw new Error(`${client.base}${path}: HTTP ${reply.status}${missing.length > 0 ? `, lacks ${missing.join(', ')}` : ''}: ${reply.body.slice(0, 300)}`);
    }
  }
  return timeGets(targets, path, 200, ctx.iterations, ctx.warmup);
}

/**
 * Top-level commands Redis saw during one GET of `path` to each server (MONITOR, from 50 ms
 * before to 100 ms after): what the whole server sends, authentication included, not only the route.
 */
async function commandsOverHttp(ctx: BenchContext, targets: Target[], path: string): Promise<number[]> {
  const seen: number[] = [];
  for (const { client } of targets) seen.push((await monitorOnce(ctx.url, () => client.get(path))).commands.length);
  return seen;
}

interface Timed {
  reads: ReadRow[];
  floor: FloorRow[];
  build: string;
  load: string;
}

/** Both servers up on the bench's Redis, every read and floor route timed, both stopped. */
async function timeOverHttp(ctx: BenchContext, counts: ReadCounts[], d: ReadsDataset, goBin: string | undefined): Promise<Timed> {
  const load0 = loadavg()[0]!.toFixed(2);
  const ourServer = await startOurServer(ctx.url);
  const goServer = goBin === undefined ? undefined : await startGoServer(goBin, ctx.port).catch(async (err: unknown) => {
    await ourServer.stop();
    throw err;
  });
  const targets: Target[] = [ourServer, ...(goServer ? [goServer] : [])].map((s) => ({ client: keepAliveClient(s.url), pid: s.pid }));
  const { both, ours: oursOnly } = expectations(d);
  try {
    const reads: ReadRow[] = [];
    for (const c of counts) {
      const [ours, go] = await timeRead(ctx, targets, c.path, [[...both[c.name], ...(oursOnly[c.name] ?? [])], both[c.name]]);
      const [oursSeen, goSeen] = await commandsOverHttp(ctx, targets, c.path);
      reads.push({ ...c, ours: { ...ours!, commands: oursSeen! }, go: go && { ...go, commands: goSeen! } });
      console.log(`  ${c.name}: ours p50 ${ours!.p50Ms} ms, p95 ${ours!.p95Ms} ms, CPU ${ours!.cpuMs ?? 'n/a'} ms; Go p50 ${go?.p50Ms ?? 'n/a'} ms, p95 ${go?.p95Ms ?? 'n/a'} ms, CPU ${go?.cpuMs ?? 'n/a'} ms`);
    }
    const floor: FloorRow[] = [];
    for (const f of FLOOR) {
      const [ours, go] = await timeGets(targets, f.path, f.status, ctx.iterations, ctx.warmup);
      const [oursSeen, goSeen] = await commandsOverHttp(ctx, targets, f.path);
      floor.push({ what: f.what, path: f.path, ours: { ...ours!, commands: oursSeen! }, go: go && { ...go, commands: goSeen! } });
      console.log(`  ${f.path}: ours p50 ${ours!.p50Ms} ms, CPU ${ours!.cpuMs ?? 'n/a'} ms; Go p50 ${go?.p50Ms ?? 'n/a'} ms, CPU ${go?.cpuMs ?? 'n/a'} ms`);
    }
    return { reads, floor, build: ourServer.build, load: `${load0} at the start, ${loadavg()[0]!.toFixed(2)} at the end` };
  } finally {
    for (const t of targets) t.client.close();
    await Promise.all([ourServer.stop(), goServer?.stop()]);
  }
}

function seedLine(s: SeedStats): string {
  const rate = Math.round(s.tasks / (s.ms / 1000)).toLocaleString('en-US');
  return `${s.tasks.toLocaleString('en-US')} tasks in ${(s.ms / 1000).toFixed(2)} s (${rate} tasks/s), ` +
    `${s.calls} EVALSHA calls of ≤ ${SEED_CHUNK.toLocaleString('en-US')} tasks, slowest call ${s.maxCallMs.toFixed(1)} ms (client wall clock)`;
}

function section(ctx: BenchContext, d: ReadsDataset, seeded: string, memory: string, ours: OurReads, t: Timed, go: GoOutcome): string {
  const goServer = go.ok
    ? "Go's server: `interop-bin serve-inspector` (tests/go/inspectorserver.go), net/http over asynq v0.26.0's own `Inspector` (its go-redis pool), JSON out, what asynqmon's handlers do: " +
      '`queues` = `Queues()` + `GetQueueInfo` per queue (asynqmon\'s queue list); a page = `ListPendingTasks` with `Page`/`PageSize` alone (asynqmon\'s list handler adds a `GetQueueInfo` for its stats panel, so this baseline is never slower than asynqmon; ours returns the total in its one round trip); `taskInfo` = `GetTaskInfo`.'
    : `**Go not run: ${go.reason}.** Go's columns are n/a.`;
  const counted = ours.via === 'route handlers'
    ? 'ours by the same route handlers called in this process'
    : `ours by **the core calls the routes make** (\`inspector.queues()\`, \`.tasks()\`, \`.task()\`), as the route handlers could not be loaded in-process: ${ours.fallbackReason ?? '?'}`;
  return [
    '## Reads: queue list, pending pages, task detail',
    '',
    `- Dataset: ${d.summary}; Redis \`used_memory\` ${memory}`,
    `- Seeding (seed-tasks.lua, built server-side): ${seeded}`,
    '- **Latency is measured over HTTP on both sides**, on loopback, with one client: Node\'s `http` module in the bench process, one keep-alive agent per server limited to one socket (every timed request reuses it), one request at a time, the whole body read before the clock stops. ' +
      `The servers take turns request by request (ours, Go, ours, …) so the machine's noise falls on both; ${ctx.warmup} untimed rounds, then ${ctx.iterations} timed, nearest-rank p50/p95. Load average (1 min): ${t.load}. ` +
      'Server CPU per request = the server process\'s CPU time (every thread\'s schedstat) over the timed requests, divided by their number: less sensitive to the machine\'s other load than wall clock, and it includes whatever the server does in the background meanwhile.',
    `- Our server: ${t.build}, started by the launcher (\`bin/asynqlens.mjs\` → the Next.js standalone server) with \`ASYNQLENS_AUTH=none\` and the shared snapshot off (\`ASYNQLENS_SNAPSHOT_MS=0\`), so every request reads Redis as each of Go's does. A request runs everything a production one does: the launcher's API lane (bin/api-lane.mjs, the default), the route wrapper's checks (Host rule, identity, security headers), zod, the DTO mapping, JSON.`,
    `- ${goServer}`,
    '- Both servers and the client run on the cores this process is pinned to (see the header); Redis has core 0 to itself.',
    `- Redis traffic is counted in-process (never timed there): ${counted}, round trips = writes to the client socket per request (ioredis sends a pipeline in one write), commands = top-level commands under MONITOR (script-internal ones counted apart); Go's by \`interop-bin bench-reads\` (tests/go/bench.go), the same Inspector calls, round trips from a go-redis hook (one per command, one per pipeline). The column \`HTTP: commands\` is what Redis saw (MONITOR) during one HTTP request to each server: whole-server traffic, authentication's included.`,
    '- Target (small reads at Go\'s speed): p50 ours/Go ≤ 1.5× for the task detail and the pages, aiming at 1.0×.',
    '',
    readsTable(t.reads, go),
    '',
    'Per-request floor of each server (routes that read no Redis; the commands column checks it), same client and method. ' +
      'Go\'s liveness row is near what the client and loopback alone cost, which every row above includes on both sides:',
    '',
    floorTable(t.floor),
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
    let counts: ReadCounts[];
    try {
      console.log(`counting our Redis traffic (${ours.via}, in-process)`);
      if (ours.fallbackReason) console.log(`  NOTE: routes not loadable, counting core calls: ${ours.fallbackReason}`);
      counts = await countOurs(ctx, ours, d);
    } finally {
      ours.close();
    }
    console.log("counting Go's Redis traffic (bench-reads)");
    const go = await runGoReads(ctx.port, d.big.queue, d.detailId, COUNTED_RUNS);
    if (!go.ok) console.error(`\n${'#'.repeat(78)}\n##  WARNING: ${go.reason}.\n##  Go's columns are n/a; only our numbers are reported.\n${'#'.repeat(78)}\n`);
    console.log(`timing over HTTP, ${ctx.iterations} iterations per read after ${ctx.warmup} untimed`);
    const timed = await timeOverHttp(ctx, counts, d, go.ok ? go.bin : undefined);
    return { markdown: section(ctx, d, seeded, memory, ours, timed, go), failures: roundTripFailures(counts, go) };
  },
};
