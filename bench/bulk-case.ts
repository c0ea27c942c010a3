/**
 * The bulk benchmark: run-all over archived, archive-all over pending and delete-all over
 * pending, each over a tenth of `--tasks` tasks and then over `--tasks` (default 100,000 and
 * 1,000,000: the targets hold at both sizes; about two minutes in all), our core's pipelined bulkAll next to
 * asynq v0.26.0's Inspector (one unbounded script) on the same data, one after the other on a
 * flushed Redis, with a PING prober on another connection during each run (bulk-ping-prober.ts).
 *
 * Each side: FLUSHALL, seed server-side, start the call log (slowlog.ts: SLOWLOG for the
 * longest calls, commandstats for the script calls), run, read the log, then check task by
 * task where every seeded task ended up (bulk-verify.ts).
 * Targets, for our side only: no Redis call over 5 ms, no PING waiting 10 ms, total ≤ 1.5×
 * asynq's, nothing lost or duplicated. asynq's numbers (its one long script, the orphan hashes
 * its archive trim leaves) are reported, never judged.
 */
import type { Redis } from 'ioredis';
import { bulkAll, createRedis, type BulkResult } from '../lib/asynq';
import { MAX_ARCHIVE_SIZE } from '../lib/asynq/mutations/archive-limits';
import type { BenchCase, BenchContext, CaseResult } from './bench-case';
import { checkArchiveAll, checkDeleteAll, checkRunAll } from './bulk-verify';
import { startPingProber, type PingStats } from './bulk-ping-prober';
import { bulkSection, type BulkRow, type Scenario } from './bulk-report';
import { goBinary, NO_GO, runGo } from './go-bin';
import { seedBatches } from './seed';
import { SLOW_MS, startCallLog, stopCallLog, THRESHOLD_US, type CallStats } from './slowlog';
import { verifySeeded, type SeedState, type TaskBatch } from './task-message';

/** What asynq's trim leaves in the archive: the newest MAX_ARCHIVE_SIZE - 1. */
const ARCHIVE_CAP = MAX_ARCHIVE_SIZE - 1;

function batch(queue: string, tag: number, state: SeedState, count: number): TaskBatch {
  const digit = state === 'pending' ? 0 : 3;
  return { queue, state, count, idFormat: `${tag.toString(16)}-0000-4000-8${digit}00-%012d` };
}

const n = (x: number): string => x.toLocaleString('en-US');

async function seed(admin: Redis, b: TaskBatch): Promise<void> {
  await admin.flushall();
  const s = await seedBatches(admin, [b]);
  for (const i of [1, Math.ceil(b.count / 2), b.count]) await verifySeeded(admin, b, i);
  console.log(`  seeded ${n(s.tasks)} ${b.state} in ${b.queue} in ${(s.ms / 1000).toFixed(1)} s (${s.calls} calls); samples verified`);
}

/** Prints progress at every tenth. */
function progress(label: string, started: number): (p: { done: number; total: number }) => void {
  let next = 0.1;
  return ({ done, total }) => {
    if (total === 0 || done / total < next) return;
    while (done / total >= next) next += 0.1;
    console.log(`    ${label}: ${n(done)} / ${n(total)} after ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
}

interface Timed<T> {
  ms: number;
  calls: CallStats;
  ping: PingStats;
  value: T;
}

/**
 * Waits until Redis serves other clients again: a client may give up on a script (asynq's
 * go-redis times out after 3 s) while Redis is still running it, answering BUSY meanwhile.
 */
async function untilNotBusy(admin: Redis): Promise<void> {
  for (const started = performance.now(); ; ) {
    try {
      await admin.ping();
      return;
    } catch (err) {
      if (!(err instanceof Error && err.message.startsWith('BUSY')) || performance.now() - started > 600_000) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * Runs `fn` with every Redis call logged and a PING prober on its own connection; the admin
 * connection does nothing meanwhile.
 */
async function measured<T>(ctx: BenchContext, fn: () => Promise<T>): Promise<Timed<T>> {
  const { admin } = ctx;
  const saved = await startCallLog(admin);
  const prober = await startPingProber(ctx.port);
  const t0 = performance.now();
  let value: T;
  try {
    value = await fn();
  } catch (err) {
    await prober.stop();
    await untilNotBusy(admin);
    await stopCallLog(admin, saved); // restores the settings
    throw err;
  }
  const ms = performance.now() - t0;
  const ping = await prober.stop();
  await untilNotBusy(admin);
  return { ms, calls: await stopCallLog(admin, saved), ping, value };
}

async function runOurs(ctx: BenchContext, b: TaskBatch, action: Action): Promise<Timed<BulkResult>> {
  const redis = createRedis({ url: ctx.url, redisOptions: { connectionName: 'asynqlens-bulk' } });
  await redis.connect();
  try {
    const label = `ours ${action}All ${b.state}`;
    return await measured(ctx, () => {
      const started = performance.now();
      return bulkAll(redis, b.queue, action, b.state, { onProgress: progress(label, started) });
    });
  } finally {
    redis.disconnect();
  }
}

type GoOp = 'runAllArchived' | 'archiveAllPending' | 'deleteAllPending';

/** What the Inspector call answered: a count, or asynq's error text (an answer, not a crash). */
type GoAnswer = { count: number } | { error: string };

async function goOp(bin: string, port: number, op: GoOp, queue: string): Promise<GoAnswer> {
  const out = await runGo(bin, ['inspect-op', '--redis', `127.0.0.1:${port}`, '--db', '0'], JSON.stringify({ op, queue }), 600_000);
  const reply = JSON.parse(out) as { ok: boolean; count?: number; error?: string };
  if (reply.ok && typeof reply.count === 'number') return { count: reply.count };
  if (!reply.ok && typeof reply.error === 'string') return { error: reply.error };
  throw new Error(`inspect-op ${op} ${queue}: ${out.trim()}`);
}

const answerText = (a: GoAnswer): string => ('count' in a ? `returned ${n(a.count)}` : `failed: "${a.error}"`);

/** The cost of starting the Go program and connecting (an op on a missing queue). */
async function goStartMs(bin: string, port: number): Promise<number> {
  const t0 = performance.now();
  await runGo(bin, ['inspect-op', '--redis', `127.0.0.1:${port}`, '--db', '0'], JSON.stringify({ op: 'runAllArchived', queue: 'bench:none' }), 60_000);
  return performance.now() - t0;
}

function callLine(who: string, t: Timed<unknown>, tasks: number): string {
  const c = t.calls;
  const longest = c.maxUs === 0 ? `every call < ${THRESHOLD_US} µs` : `longest ${n(c.maxUs)} µs (${c.maxCall})`;
  const nested = c.nestedMaxUs === 0 ? '' : `; longest command inside a script ${n(c.nestedMaxUs)} µs (${c.nestedMaxCall})`;
  return `  ${who}: ${(t.ms / 1000).toFixed(2)} s, ${n(Math.round(tasks / (t.ms / 1000)))} tasks/s; ${n(c.scripts)} script calls ` +
    `(${(c.scriptUs / 1000).toFixed(1)} ms in Redis), ${longest}, ${c.slow} ≥ ${SLOW_MS} ms` +
    `${c.logged > 1 ? `; logged calls p50 ${n(c.p50Us)} µs, p99 ${n(c.p99Us)} µs` : ''}${nested}`;
}

/** GO_READ_TIMEOUT_US: asynq's default RedisClientOpt.ReadTimeout (3 s). */
const GO_READ_TIMEOUT_US = 3_000_000;

/**
 * What asynq's side did beyond where the tasks ended up: a count it got wrong, and why when the
 * log shows it (go-redis re-sends a command whose reply outlives its read timeout), and the
 * longest command inside its one script.
 */
function goNotes(method: string, t: Timed<GoAnswer>, count: number): string[] {
  const notes: string[] = [];
  const a = t.value;
  if (!('count' in a) || a.count !== count) {
    const c = t.calls;
    const resent = c.maxUs > GO_READ_TIMEOUT_US && (c.evals >= 2 || c.rejected >= 1);
    const after = 'count' in a
      ? `Redis ran it again (${c.evals} EVAL runs), and the second run found nothing left to move`
      : a.error.includes('BUSY')
        ? 'Redis refused the re-sent one with BUSY (the first had run past busy-reply-threshold, 5 s), so the caller got an error although every task had been moved'
        : 'the re-sent one failed';
    notes.push(`\`${method}\` ${answerText(a)}${'count' in a ? `, not ${n(count)}` : ''}` + (resent
      ? `: its script ran ${(c.maxUs / 1e6).toFixed(2)} s, past go-redis's 3 s read timeout, so go-redis re-sent the EVAL; ${after}.`
      : '.'));
  }
  if (t.calls.nestedMaxUs > 0) notes.push(`longest command inside its script: ${n(t.calls.nestedMaxUs)} µs (\`${t.calls.nestedMaxCall}\`).`);
  return notes;
}

/** Our batch scripts' spread (all are logged: each takes longer than the log threshold). */
function ourNotes(t: Timed<unknown>): string[] {
  const c = t.calls;
  if (c.logged < 2) return [];
  return [`${n(c.logged)} calls of ≥ ${THRESHOLD_US} µs: p50 ${n(c.p50Us)} µs, p99 ${n(c.p99Us)} µs, max ${n(c.maxUs)} µs.`];
}

/** A single command inside our scripts this long (they are all O(1) or O(batch)) is a stall. */
const STALL_US = 1_000;

/** Failures of our side: a call too long, a log that overflowed, or the checks' problems. */
/** What a concurrent PING may wait at most, and our total's limit as a multiple of asynq's. */
const PING_LIMIT_US = 10_000;
const RATIO_LIMIT = 1.5;

function ourFailures(scenario: string, row: BulkRow, goMs: number | undefined): string[] {
  const out: string[] = [];
  const c = row.calls;
  // An O(1) command that alone takes a millisecond means Redis itself was held up (preempted,
  // throttled, a page fault), not that the script had too much to do; say so next to the failure.
  const stalled = c.nestedMaxUs >= STALL_US
    ? `; the same run had one command inside a script take ${n(c.nestedMaxUs)} µs (${c.nestedMaxCall}), so Redis was stalled (p50 of the calls ${n(c.p50Us)} µs, p99 ${n(c.p99Us)} µs)`
    : '';
  if (c.maxUs > SLOW_MS * 1000) out.push(`${scenario}: longest Redis call ${n(c.maxUs)} µs (${c.maxCall}), target ≤ ${SLOW_MS} ms${stalled}`);
  if (!row.calls.complete) out.push(`${scenario}: SLOWLOG overflowed, the longest call is unproven`);
  if (row.ping.maxUs >= PING_LIMIT_US) out.push(`${scenario}: a PING from another connection waited ${n(row.ping.maxUs)} µs, target < ${n(PING_LIMIT_US)} µs`);
  if (goMs !== undefined && row.ms > RATIO_LIMIT * goMs) out.push(`${scenario}: ${(row.ms / goMs).toFixed(2)}× asynq's time, target ≤ ${RATIO_LIMIT}×`);
  out.push(...row.problems.map((p) => `${scenario}: ${p}`));
  return out;
}

type Action = 'run' | 'archive' | 'delete';

/** One scenario: an action over every task of a state, ours and asynq's on the same data. */
interface Spec {
  action: Action;
  state: SeedState;
  goOp: GoOp;
  method: string;
  /** Queue names and ID tags of the two sides. */
  queues: [ours: string, go: string];
  tags: [ours: number, go: number];
}

const SPECS: Spec[] = [
  { action: 'run', state: 'archived', goOp: 'runAllArchived', method: 'RunAllArchivedTasks', queues: ['bulk:ours', 'bulk:go'], tags: [0xb0a10000, 0xb0a20000] },
  { action: 'archive', state: 'pending', goOp: 'archiveAllPending', method: 'ArchiveAllPendingTasks', queues: ['bulk2:ours', 'bulk2:go'], tags: [0xb0b10000, 0xb0b20000] },
  { action: 'delete', state: 'pending', goOp: 'deleteAllPending', method: 'DeleteAllPendingTasks', queues: ['bulk3:ours', 'bulk3:go'], tags: [0xb0c10000, 0xb0c20000] },
];

const title = (s: Spec, count: number): string => `${s.action}-all over ${n(count)} ${s.state}`;

/** Where every seeded task ended up after `spec`'s action, in words, and what is wrong. */
async function verify(admin: Redis, spec: Spec, b: TaskBatch, isGo: boolean): Promise<{ outcome: string; problems: string[]; gone?: number }> {
  if (spec.action === 'run') {
    const c = await checkRunAll(admin, b);
    return { problems: c.problems, outcome: `${n(c.pending)} pending (each seeded ID exactly once, hash state pending), ${n(c.archived)} archived` };
  }
  if (spec.action === 'archive') {
    const c = await checkArchiveAll(admin, b, ARCHIVE_CAP, isGo);
    const orphans = isGo ? `**${n(c.orphans)} orphan hashes** (state archived, in no set)` : `${n(c.orphans)} orphan hashes`;
    return { problems: c.problems, gone: c.gone, outcome: `${n(c.pending)} pending; ${n(c.archived)} archived + ${n(c.gone)} trimmed (hash deleted, in no set) + ${orphans} = ${n(c.archived + c.gone + c.orphans)}` };
  }
  const c = await checkDeleteAll(admin, b);
  return { problems: c.problems, outcome: `${n(c.left)} left in ${spec.state}, ${n(c.hashes)} task hashes left` };
}

/** bulkAll's own account, checked against the count and the trimmed hashes found gone. */
function checkResult(r: BulkResult, count: number, gone: number | undefined): string[] {
  const out: string[] = [];
  if (r.succeeded !== count) out.push(`bulkAll reported ${n(r.succeeded)} succeeded, expected ${n(count)}`);
  if (r.failed.length > 0) out.push(`bulkAll reported ${r.failed.length} failed, e.g. ${r.failed[0]?.id}: ${r.failed[0]?.error.message}`);
  if (r.stopped) out.push('bulkAll stopped early');
  if (gone !== undefined && r.trimmed !== gone) out.push(`bulkAll reported ${n(r.trimmed)} trimmed, but ${n(gone)} hashes are gone`);
  return out;
}

const pingLine = (t: Timed<unknown>): string =>
  `PING from another connection: ${n(t.ping.count)} answered, p50 ${n(t.ping.p50Us)} µs, p99 ${n(t.ping.p99Us)} µs, max ${n(t.ping.maxUs)} µs, ${t.ping.over10ms} ≥ 10 ms (prober ${t.ping.placement})`;

async function scenario(ctx: BenchContext, spec: Spec, count: number, bin: string | undefined): Promise<Scenario> {
  const t = title(spec, count);
  console.log(`\n${t}`);
  const ours = batch(spec.queues[0], spec.tags[0], spec.state, count);
  await seed(ctx.admin, ours);
  const mine = await runOurs(ctx, ours, spec.action);
  console.log(`${callLine('ours', mine, count)}\n    ${pingLine(mine)}`);
  const check = await verify(ctx.admin, spec, ours, false);
  check.problems.push(...checkResult(mine.value, count, check.gone));
  const r = mine.value;
  const rows: BulkRow[] = [{
    impl: 'ours', ms: mine.ms, calls: mine.calls, ping: mine.ping, problems: check.problems, notes: ourNotes(mine),
    outcome: `${check.outcome}; bulkAll: ${n(r.succeeded)} succeeded, ${r.failed.length} failed${spec.action === 'archive' ? `, ${n(r.trimmed)} trimmed` : ''}`,
  }];
  console.log(`  ours checked: ${check.problems.length === 0 ? rows[0]?.outcome : check.problems.join('; ')}`);

  if (bin !== undefined) {
    const go = batch(spec.queues[1], spec.tags[1], spec.state, count);
    await seed(ctx.admin, go);
    const theirs = await measured(ctx, () => goOp(bin, ctx.port, spec.goOp, go.queue));
    console.log(`${callLine('asynq', theirs, count)}\n    ${pingLine(theirs)}`);
    const gc = await verify(ctx.admin, spec, go, true);
    rows.push({
      impl: 'asynq', ms: theirs.ms, calls: theirs.calls, ping: theirs.ping, problems: gc.problems, notes: goNotes(spec.method, theirs, count),
      outcome: `${gc.outcome}; ${spec.method} ${answerText(theirs.value)}`,
    });
    console.log(`  asynq checked: ${gc.problems.length === 0 ? rows[1]?.outcome : gc.problems.join('; ')}`);
    for (const note of rows[1]?.notes ?? []) console.log(`  asynq: ${note}`);
    console.log(`  ours / asynq: ${(mine.ms / theirs.ms).toFixed(2)}×`);
  }
  await ctx.admin.flushall();
  return { title: t, tasks: count, rows };
}

/** Each scenario's task counts: a tenth of `--tasks` (while that is at least 1,000), then `--tasks`. */
function sizes(tasks: number): number[] {
  const tenth = Math.floor(tasks / 10);
  return tenth >= 1_000 ? [tenth, tasks] : [tasks];
}

export const bulkCase: BenchCase = {
  name: 'bulk',
  async run(ctx): Promise<CaseResult> {
    const bin = await goBinary();
    if (bin === undefined) console.error(`\n${'#'.repeat(78)}\n##  WARNING: ${NO_GO}.\n##  asynq's rows are n/a; only our numbers are reported.\n${'#'.repeat(78)}\n`);
    const startMs = bin === undefined ? undefined : await goStartMs(bin, ctx.port);
    const scenarios: Scenario[] = [];
    for (const spec of SPECS) for (const count of sizes(ctx.tasks)) scenarios.push(await scenario(ctx, spec, count, bin));
    const failures = scenarios.flatMap((s) => s.rows.filter((r) => r.impl === 'ours').flatMap((r) => ourFailures(s.title, r, s.rows.find((x) => x.impl === 'asynq')?.ms)));
    // Problems on asynq's side are reported in the table, never judged; print them loudly.
    for (const s of scenarios) for (const r of s.rows) if (r.impl === 'asynq' && r.problems.length) console.log(`  NOTE asynq, ${s.title}: ${r.problems.join('; ')}`);
    return { markdown: bulkSection(scenarios, bin === undefined ? NO_GO : undefined, startMs), failures };
  },
};
