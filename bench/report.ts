/**
 * Markdown for bench/results.md: the file header and the read benchmark's tables.
 */
import type { GoOutcome, GoRead } from './go-reads';
import type { HttpTiming } from './http-timing';
import type { Machine } from './machine';
import type { ReadName } from './our-reads';

/** Our Redis traffic for one read, counted in-process (bench/our-reads.ts). */
export interface ReadCounts {
  name: ReadName;
  path: string;
  /** Round trips of the counted runs: first and largest (they differ if not constant). */
  roundTrips: number;
  roundTripsMax: number;
  commands: string[];
  nested: number;
}

/** A server's reply over HTTP: its latency, and the commands Redis saw during one request. */
export interface ServerRead extends HttpTiming {
  commands: number;
}

/** One read: our counts, and each server over HTTP (Go's absent without Go). */
export interface ReadRow extends ReadCounts {
  ours: ServerRead;
  go?: ServerRead;
}

/** A route that never touches Redis: the server's own per-request cost. */
export interface FloorRow {
  what: string;
  path: string;
  ours: ServerRead;
  go?: ServerRead;
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

function commandsCell(r: ReadCounts): string {
  const scripts = r.commands.filter((c) => c === 'evalsha' || c === 'eval').length;
  return `${r.commands.length} (${scripts} script${scripts === 1 ? '' : 's'}, ${r.nested} in Lua)`;
}

const msCells = (t: HttpTiming | undefined): string[] => (t ? [t.p50Ms.toFixed(3), t.p95Ms.toFixed(3)] : ['n/a', 'n/a']);
const p50Ratio = (ours: HttpTiming, go: HttpTiming | undefined): string => (go ? `${(ours.p50Ms / go.p50Ms).toFixed(2)}×` : 'n/a');
const bytesCell = (ours: HttpTiming, go: HttpTiming | undefined): string =>
  `${ours.bytes.toLocaleString('en-US')} / ${go ? go.bytes.toLocaleString('en-US') : 'n/a'}`;
const cpuCells = (ours: HttpTiming, go: HttpTiming | undefined): string[] => {
  const ms = (t: HttpTiming | undefined) => (t?.cpuMs === undefined ? 'n/a' : t.cpuMs.toFixed(3));
  const ratio = ours.cpuMs !== undefined && go?.cpuMs ? `${(ours.cpuMs / go.cpuMs).toFixed(2)}×` : 'n/a';
  return [`${ms(ours)} / ${ms(go)}`, ratio];
};
const seenCell = (ours: ServerRead, go: ServerRead | undefined): string => `${ours.commands} / ${go ? go.commands : 'n/a'}`;

/** The reads over HTTP, with Redis counts; Go's columns are n/a when Go is missing. */
export function readsTable(rows: readonly ReadRow[], go: GoOutcome): string {
  const goTrips = (name: string): GoRead | undefined => (go.ok ? go.reads.find((g) => g.name === name) : undefined);
  const lines = [
    '| Read (same path on both servers) | Ours: Redis round trips | Ours: commands | Go: Redis round trips | HTTP: commands ours / Go | Ours: p50 ms | Ours: p95 ms | Go: p50 ms | Go: p95 ms | p50 ours/Go | Server CPU ms per request ours / Go | CPU ours/Go | Body bytes ours / Go |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const r of rows) {
    const g = goTrips(r.name);
    lines.push(`| ${r.name}: \`GET ${r.path}\` | ${trips(r.roundTrips, r.roundTripsMax)} | ${commandsCell(r)} | ${g ? trips(g.roundTrips, g.roundTripsMax) : 'n/a'} | ${seenCell(r.ours, r.go)} | ` +
      `${[...msCells(r.ours), ...msCells(r.go)].join(' | ')} | ${p50Ratio(r.ours, r.go)} | ${cpuCells(r.ours, r.go).join(' | ')} | ${bytesCell(r.ours, r.go)} |`);
  }
  return lines.join('\n');
}

/** Each server's per-request floor: routes that never touch Redis. */
export function floorTable(rows: readonly FloorRow[]): string {
  const lines = [
    '| No Redis | Path | Status | HTTP: commands ours / Go | Ours: p50 ms | Ours: p95 ms | Go: p50 ms | Go: p95 ms | p50 ours/Go | Server CPU ms per request ours / Go | CPU ours/Go |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const r of rows) {
    lines.push(`| ${r.what} | \`GET ${r.path}\` | ${r.ours.status} | ${seenCell(r.ours, r.go)} | ${[...msCells(r.ours), ...msCells(r.go)].join(' | ')} | ${p50Ratio(r.ours, r.go)} | ${cpuCells(r.ours, r.go).join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Reads where our round trips exceed Go's (the target is ours ≤ Go's for every read). */
export function roundTripFailures(ours: readonly ReadCounts[], go: GoOutcome): string[] {
  if (!go.ok) return [];
  return ours.flatMap((r) => {
    const g = go.reads.find((x) => x.name === r.name);
    if (!g) return [`${r.name}: Go's bench-reads reported no such read`];
    return r.roundTripsMax > g.roundTrips ? [`${r.name}: ${r.roundTripsMax} round trips, Go's inspector needs ${g.roundTrips}`] : [];
  });
}
