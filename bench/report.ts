/**
 * Markdown for bench/results.md: the file header and the read benchmark's table.
 */
import type { GoOutcome, GoRead } from './go-reads';
import type { Machine } from './machine';
import type { Timed } from './measure';
import type { ReadName } from './our-reads';

export interface OurRead extends Timed {
  name: ReadName;
  title: string;
  commands: string[];
  nested: number;
}

export function fileHeader(m: Machine, date: Date, iterations: number, warmup: number): string {
  return [
    '# asynqlens benchmarks',
    '',
    `- Date: ${date.toISOString()}`,
    `- Machine: \`nproc\` = ${m.nproc} (${m.cpu}); ${m.pinning}`,
    `- Redis ${m.redisVersion}, private redis-server on loopback, \`--save '' --appendonly no\`; Node ${m.node}`,
    `- Latency: wall clock per request, nearest-rank p50/p95 over ${iterations} iterations after ${warmup} untimed ones`,
    '- Regenerate with `npm run bench` (or `npx tsx bench/run.ts [--iterations N] [--tasks N] [--only CASE]`).',
    '',
  ].join('\n');
}

const trips = (n: number, max: number): string => (n === max ? String(n) : `${n}–${max}`);

function commandsCell(r: OurRead): string {
  const scripts = r.commands.filter((c) => c === 'evalsha' || c === 'eval').length;
  return `${r.commands.length} (${scripts} script${scripts === 1 ? '' : 's'}, ${r.nested} in Lua)`;
}

function ratio(ours: OurRead, go: GoRead | undefined): string {
  if (!go) return 'n/a';
  return go.roundTrips === 0 ? '∞' : (ours.roundTripsMax / go.roundTrips).toFixed(3);
}

/** The comparison table; Go's columns are n/a when Go is missing. */
export function readsTable(ours: readonly OurRead[], go: GoOutcome): string {
  const goRead = (name: string) => (go.ok ? go.reads.find((g) => g.name === name) : undefined);
  const lines = [
    '| Read | Ours: round trips | Ours: commands | Ours: p50 ms | Ours: p95 ms | Go inspector: round trips | Go: p50 ms | Go: p95 ms | Round trips ours/Go |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const r of ours) {
    const g = goRead(r.name);
    const goCells = g ? [trips(g.roundTrips, g.roundTripsMax), g.p50Ms.toFixed(3), g.p95Ms.toFixed(3)] : ['n/a', 'n/a', 'n/a'];
    lines.push(`| ${r.name}: \`${r.title}\` | ${trips(r.roundTrips, r.roundTripsMax)} | ${commandsCell(r)} | ` +
      `${r.p50Ms.toFixed(3)} | ${r.p95Ms.toFixed(3)} | ${goCells.join(' | ')} | ${ratio(r, g)} |`);
  }
  return lines.join('\n');
}

/** Reads where our round trips exceed Go's (the target is ours ≤ Go's for every read). */
export function roundTripFailures(ours: readonly OurRead[], go: GoOutcome): string[] {
  if (!go.ok) return [];
  return ours.flatMap((r) => {
    const g = go.reads.find((x) => x.name === r.name);
    if (!g) return [`${r.name}: Go's bench-reads reported no such read`];
    return r.roundTripsMax > g.roundTrips ? [`${r.name}: ${r.roundTripsMax} round trips, Go's inspector needs ${g.roundTrips}`] : [];
  });
}
