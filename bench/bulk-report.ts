/**
 * Markdown for the bulk benchmark's section of bench/results.md.
 */
import { MAX_BATCH } from '../lib/asynq';
import type { PingStats } from './bulk-ping-prober';
import { SLOW_MS, THRESHOLD_US, type CallStats } from './slowlog';

export interface BulkRow {
  impl: 'ours' | 'asynq';
  /** Wall clock of the whole action as its caller sees it. */
  ms: number;
  calls: CallStats;
  /** What a PING from another connection waited during the run. */
  ping: PingStats;
  /** Where the tasks ended up, in words. */
  outcome: string;
  /** Lost, duplicated or misplaced tasks; empty when every task is accounted for. */
  problems: string[];
  /** Anything else worth knowing, printed under the table. */
  notes?: string[];
}

export interface Scenario {
  title: string;
  tasks: number;
  rows: BulkRow[];
}

export const BULK_HEADING = '## Bulk: run-all, archive-all and delete-all, pipelined batches vs asynq\'s one script';

const n = (x: number): string => x.toLocaleString('en-US');

const ms = (us: number): string => (us / 1000).toFixed(1);

function row(s: Scenario, r: BulkRow): string {
  const c = r.calls;
  const who = r.impl === 'ours' ? `ours: \`bulkAll\`, ≤ ${MAX_BATCH} per script` : 'asynq v0.26.0 Inspector';
  const go = s.rows.find((x) => x.impl === 'asynq');
  const ratio = r.impl === 'ours' && go ? `**${(r.ms / go.ms).toFixed(2)}×**` : '–';
  const slow = r.impl === 'ours' && c.slow > 0 ? `**${c.slow}**` : String(c.slow);
  const check = r.problems.length === 0 ? `✓ ${r.outcome}` : `✗ ${r.problems.join('; ')}`;
  const longest = c.maxUs === 0 ? `< ${THRESHOLD_US}` : `${n(c.maxUs)}${c.complete ? '' : ' (log full)'}`;
  return `| ${s.title} | ${who} | ${(r.ms / 1000).toFixed(2)} | ${n(Math.round(s.tasks / (r.ms / 1000)))} | ${n(c.scripts)} | ` +
    `${(c.scriptUs / 1000).toFixed(1)} | ${longest} | \`${c.maxCall}\` | ${slow} | ${ms(r.ping.maxUs)} / ${ms(r.ping.p99Us)} | ${ratio} | ${check} |`;
}

export function bulkTable(scenarios: readonly Scenario[]): string {
  return [
    `| Action | Implementation | Total s | Tasks/s | Script calls | Script time ms | Longest call µs | Longest call | Calls ≥ ${SLOW_MS} ms | PING wait max / p99 ms | Total ours/asynq | Task-by-task check |`,
    '|---|---|--:|--:|--:|--:|--:|---|--:|--:|--:|---|',
    ...scenarios.flatMap((s) => s.rows.map((r) => row(s, r))),
  ].join('\n');
}

export function bulkSection(scenarios: readonly Scenario[], goMissing: string | undefined, goStartMs: number | undefined): string {
  const goNote = goMissing !== undefined
    ? `**asynq side not run: ${goMissing}.**`
    : `asynq: \`interop-bin inspect-op\` (tests/go/inspectop.go) calling \`RunAllArchivedTasks\` / \`ArchiveAllPendingTasks\` / \`DeleteAllPendingTasks\`, one Lua script over the whole set; its total includes starting the Go process and connecting (${(goStartMs ?? 0).toFixed(0)} ms for an op on a missing queue).`;
  return [
    BULK_HEADING,
    '',
    '- Data: seeded server-side (seed-tasks.lua) on a flushed Redis before each side, so both start from the same state; queues `bulk:ours` / `bulk:go` (run-all), `bulk2:ours` / `bulk2:go` (archive-all), `bulk3:ours` / `bulk3:go` (delete-all); pending msg ≈ 200 B.',
    `- Ours: \`bulkAll(redis, q, action, state)\` from lib/asynq (move-all.lua, one EVALSHA per batch of at most ${MAX_BATCH} tasks, as many in flight as fit in 4 ms of Redis time (2-6), each sized by the Redis time the script reports, the script loaded with one SCRIPT LOAD first; the archive trimmed in the same calls, never fewer than each adds). ${goNote}`,
    '- PING wait: a separate Node process on its own connection (on Redis\'s core at a real-time priority above Redis\'s, so it wakes on time whatever else runs) sends PING, waits for PONG, sleeps 1 ms, for the whole run (bench/bulk-ping-prober.ts): what a worker waits for Redis while the bulk runs. Targets (ours only): every PING < 10 ms; total ≤ 1.5× asynq\'s.',
    `- Longest call and calls ≥ ${SLOW_MS} ms: Redis's SLOWLOG during the run at \`slowlog-log-slower-than ${THRESHOLD_US}\` (execution time inside Redis, a script timed whole; commands run inside scripts, which Redis 7 also logs, and the bench's own admin connection are left out). Script calls and script time: EVAL + EVALSHA in INFO commandstats. Target (ours only): no call over ${SLOW_MS} ms.`,
    '- Check: after each run every seeded ID is looked up (the state\'s list/zset, HGET state of every hash, SCAN of `t:*`). Archive-all keeps asynq\'s limit of 9,999 archived: the rest is trimmed; ours deletes a trimmed task\'s hash, asynq\'s inspector leaves it behind (an orphan: state archived, in no set). asynq\'s numbers are reported, not judged.',
    '',
    bulkTable(scenarios),
    '',
    ...scenarios.flatMap((s) => s.rows.flatMap((r) => (r.notes ?? []).map((note) => `- ${s.title}, ${r.impl === 'ours' ? 'ours' : 'asynq'}: ${note}`))),
    '',
  ].join('\n');
}
