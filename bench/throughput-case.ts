/**
 * The throughput benchmark: tasks per second of our task server (Server + ServeMux, no-op
 * handler) at concurrency 10 and 100, and enqueues per second of our client with 1 and 50 in
 * flight, each beside asynq v0.26.0 doing the same on the same Redis in the same run.
 *
 * Each side runs in a fresh child process (bench/throughput-ours.ts; Go's `interop-bin
 * bench-process` / `bench-enqueue`, tests/go/throughput.go) that inherits the run's pinning.
 * Runs alternate ours/Go, the order flipping every round, so load from the rest of the machine
 * falls on both; each figure is the median of the rounds.
 * Targets: server ≥ 0.5× Go, client ≥ 0.8× Go.
 */
import { z } from 'zod';
import type { BenchCase, BenchContext, CaseResult } from './bench-case';
import { goBinary, NO_GO, runChild } from './go-bin';
import { seedBatches } from './seed';
import type { TaskBatch } from './task-message';

const ROUNDS = 5;
const QUEUE = 'throughput';
/** Tasks per server run: the first PROCESS_WARMUP are untimed (V8 compiles its hot code then). */
const PROCESS_TASKS = 22_000;
const PROCESS_WARMUP = 2_000;
const ENQUEUES = 10_000;
const ENQUEUE_WARMUP = 1_000;
const PAYLOAD_BYTES = 128;
const SERVER_TARGET = 0.5;
const CLIENT_TARGET = 0.8;
const RUN_TIMEOUT_MS = 300_000;
const OURS = new URL('./throughput-ours.ts', import.meta.url).pathname;
const ROOT = new URL('..', import.meta.url).pathname;

const resultSchema = z.object({ tasks: z.number().int(), elapsedMs: z.number(), perSecond: z.number(), roundTrips: z.number().int() });
type RunResult = z.infer<typeof resultSchema>;

interface Measure {
  label: string;
  kind: 'server' | 'client';
  /** Flags shared by both sides' commands. */
  flags: string[];
  /** Prepares Redis before each run (the seeded queue for the server). */
  prepare(ctx: BenchContext): Promise<void>;
}

const serverMeasure = (concurrency: number): Measure => ({
  label: `Server, concurrency ${concurrency}`,
  kind: 'server',
  flags: ['--concurrency', String(concurrency), '--count', String(PROCESS_TASKS), '--warmup', String(PROCESS_WARMUP)],
  async prepare(ctx) {
    await ctx.admin.flushall();
    const batch: TaskBatch = { queue: QUEUE, state: 'pending', count: PROCESS_TASKS, idFormat: 'thru-%012d' };
    await seedBatches(ctx.admin, [batch]);
  },
});

const clientMeasure = (inFlight: number): Measure => ({
  label: `Client enqueue, ${inFlight} in flight`,
  kind: 'client',
  flags: ['--concurrency', String(inFlight), '--count', String(ENQUEUES), '--warmup', String(ENQUEUE_WARMUP), '--payload-bytes', String(PAYLOAD_BYTES)],
  async prepare(ctx) {
    await ctx.admin.flushall();
  },
});

const MEASURES = [serverMeasure(10), serverMeasure(100), clientMeasure(1), clientMeasure(50)];

async function runSide(side: 'ours' | 'go', m: Measure, ctx: BenchContext, goBin: string | undefined): Promise<RunResult> {
  const common = ['--redis', `127.0.0.1:${ctx.port}`, '--queue', QUEUE, ...m.flags];
  const out = side === 'ours'
    ? await runChild(process.execPath, ['--import', 'tsx', OURS, m.kind === 'server' ? 'process' : 'enqueue', ...common], '', RUN_TIMEOUT_MS, ROOT)
    : await runChild(goBin!, [m.kind === 'server' ? 'bench-process' : 'bench-enqueue', '--db', '0', ...common], '', RUN_TIMEOUT_MS);
  return resultSchema.parse(JSON.parse(out));
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

interface Row {
  m: Measure;
  ours: RunResult[];
  go: RunResult[];
}

const rate = (runs: readonly RunResult[]) => median(runs.map((r) => r.perSecond));
const tripsPerTask = (runs: readonly RunResult[]) => median(runs.map((r) => r.roundTrips / r.tasks));
const fmtRate = (n: number) => Math.round(n).toLocaleString('en-US');
const spread = (runs: readonly RunResult[]) =>
  runs.length === 0 ? 'n/a' : `${fmtRate(Math.min(...runs.map((r) => r.perSecond)))}–${fmtRate(Math.max(...runs.map((r) => r.perSecond)))}`;

function section(rows: readonly Row[], goNote: string | undefined): string {
  const lines = [
    '## Throughput: task server and client, ours and Go asynq',
    '',
    `- Server: ${PROCESS_TASKS.toLocaleString('en-US')} pending tasks (\`bench:email\`, 131 B payload, seeded by Lua) in one queue, drained by a fresh server process with a no-op handler: ` +
      'ours is `Server` + `ServeMux` (lib/asynq/worker, bench/throughput-ours.ts), Go\'s `asynq.NewServer` + `ServeMux` (asynq v0.26.0, `interop-bin bench-process`). ' +
      `Rate = tasks handed to the handler from the ${PROCESS_WARMUP.toLocaleString('en-US')}th call to the last, over that time (with at most \`concurrency\` in flight that is the completion rate); ` +
      'each run then checks that the queue\'s processed counter reached every task. ' +
      'Asynq\'s processor has one dequeue in flight at a time; ours up to 4 while the queue has tasks (one at a time when polling an empty queue), each for a free worker slot.',
    `- Client: ${ENQUEUES.toLocaleString('en-US')} enqueues of a ${PAYLOAD_BYTES} B payload to one queue after ${ENQUEUE_WARMUP.toLocaleString('en-US')} untimed ones: ours \`enqueueTask\` on one connection, ` +
      'Go\'s `Client.Enqueue` from as many goroutines as in flight (go-redis pool). ' +
      'Our client joins the enqueues issued in one event-loop tick into one `enqueue.lua` call per queue of at most 16 tasks (lib/asynq/client/enqueue-batch.ts), ' +
      'each task written as asynq\'s enqueue script writes it and each caller getting its own outcome, so its round trips per task are below 1; ' +
      'Go sends one script call per task.',
    `- Each figure is the median of ${ROUNDS} runs per side, ours and Go alternating (order flipped every round), Redis FLUSHALLed before each run. ` +
      'Round trips per task = requests written by the side\'s own Redis connection during the timed part (one per command, one per pipeline), divided by its tasks; ' +
      'the server\'s include its heartbeat and housekeeping. Targets: server ≥ 0.5× Go, client ≥ 0.8× Go.',
    ...(goNote ? [`- Go's columns: n/a (${goNote}).`] : []),
    '',
    '| Measure | Ours: per s | Go: per s | Ours/Go | Target | Ours: range | Go: range | Round trips per task ours / Go |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const r of rows) {
    const ours = rate(r.ours);
    const go = r.go.length > 0 ? rate(r.go) : undefined;
    const target = r.m.kind === 'server' ? SERVER_TARGET : CLIENT_TARGET;
    const trips = `${tripsPerTask(r.ours).toFixed(2)} / ${go === undefined ? 'n/a' : tripsPerTask(r.go).toFixed(2)}`;
    lines.push(`| ${r.m.label} | ${fmtRate(ours)} | ${go === undefined ? 'n/a' : fmtRate(go)} | ${go === undefined ? 'n/a' : `${(ours / go).toFixed(2)}×`} | ≥ ${target}× | ` +
      `${spread(r.ours)} | ${spread(r.go)} | ${trips} |`);
  }
  lines.push('');
  return lines.join('\n');
}

export const throughputCase: BenchCase = {
  name: 'throughput',
  async run(ctx): Promise<CaseResult> {
    const goBin = await goBinary();
    const rows: Row[] = MEASURES.map((m) => ({ m, ours: [], go: [] }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const row of rows) {
        const sides: ('ours' | 'go')[] = goBin === undefined ? ['ours'] : round % 2 === 0 ? ['ours', 'go'] : ['go', 'ours'];
        for (const side of sides) {
          await row.m.prepare(ctx);
          const r = await runSide(side, row.m, ctx, goBin);
          (side === 'ours' ? row.ours : row.go).push(r);
          console.log(`  round ${round + 1}/${ROUNDS} ${row.m.label}, ${side}: ${fmtRate(r.perSecond)}/s, ${(r.roundTrips / r.tasks).toFixed(2)} round trips per task`);
        }
      }
    }
    await ctx.admin.flushall();
    const failures: string[] = [];
    for (const r of rows) {
      if (r.go.length === 0) continue;
      const ratio = rate(r.ours) / rate(r.go);
      const target = r.m.kind === 'server' ? SERVER_TARGET : CLIENT_TARGET;
      if (ratio < target) failures.push(`${r.m.label}: ${ratio.toFixed(2)}× Go (target ≥ ${target}×)`);
    }
    return { markdown: section(rows, goBin === undefined ? NO_GO : undefined), failures };
  },
};
