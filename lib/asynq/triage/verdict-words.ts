/**
 * The plain words of routing verdicts: names in backticks, times in UTC to the second (as the
 * console writes every exact time, lib/utils formatTimestamp), counts with their state and
 * number. Kept apart from the rules (verdict.ts) so the rules read as rules.
 */
import type { FleetServer, NotFoundSpan } from './fleet';

/** `name` in backticks, as the console writes names in sentences. */
export const tick = (name: string): string => `\`${name}\``;

/** A time in UTC to the second: `2025-03-01 14:02:05 UTC`, the console's one exact-time form. */
export function utcTime(d: Date): string {
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** `a`, `a and b`, `a, b and c`. */
export function listed(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`;
}

/** `n things` / `1 thing`. */
export const counted = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** Characters of the server ID shown: enough to tell apart servers of one process (same host and pid). */
const ID_SHOWN = 8;

/**
 * One server record by name: `host` pid 12 (ID `1b2c3d4e`, started 2025-03-01 14:00:05 UTC). The
 * ID is there because one process may run several servers (a release and its successor, as the
 * demo does), which host and pid cannot tell apart.
 */
export function serverName(s: FleetServer): string {
  return `${tick(s.host)} pid ${s.pid} (ID ${tick(s.serverId.slice(0, ID_SHOWN))}${s.startedAt ? `, started ${utcTime(s.startedAt)}` : ''})`;
}

/** The queues this one server record consumes: `low` only / `a`, `b` and `c` / 7 queues. */
export function ownQueues(s: FleetServer): string {
  const qs = Object.keys(s.queues).sort();
  if (qs.length === 1) return `${tick(qs[0]!)} only`;
  return qs.length <= 6 ? listed(qs.map(tick)) : `${qs.length} queues`;
}

/** `531 tasks (528 archived, 3 in retry)`. */
export function failedCount(nf: NotFoundSpan): string {
  const n = nf.retry + nf.archived;
  const parts = [nf.archived > 0 ? `${nf.archived} archived` : '', nf.retry > 0 ? `${nf.retry} in retry` : ''].filter(Boolean);
  return `${counted(n, 'task', 'tasks')} (${parts.join(', ')})`;
}

export const unixToDate = (seconds: number): Date | null => (seconds > 0 ? new Date(seconds * 1000) : null);
