/**
 * The plain words of routing verdicts: names in backticks, times in UTC to the minute, counts
 * with their state. Kept apart from the rules (verdict.ts) so the rules read as rules.
 */
import type { FleetServer, NotFoundSpan } from './fleet';

/** `name` in backticks, as the console writes names in sentences. */
export const tick = (name: string): string => `\`${name}\``;

/** A time to the minute in UTC: `2025-03-01 14:02 UTC`. */
export function minute(d: Date): string {
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `a`, `a and b`, `a, b and c`. */
export function listed(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`;
}

/** `host` pid 12 (started 2025-03-01 14:00 UTC). */
export function serverName(s: FleetServer): string {
  return `${tick(s.host)} pid ${s.pid}${s.startedAt ? ` (started ${minute(s.startedAt)})` : ''}`;
}

/** `531 tasks (528 archived, 3 in retry)`. */
export function failedCount(nf: NotFoundSpan): string {
  const n = nf.retry + nf.archived;
  const parts = [nf.archived > 0 ? `${nf.archived} archived` : '', nf.retry > 0 ? `${nf.retry} in retry` : ''].filter(Boolean);
  return `${n} ${n === 1 ? 'task' : 'tasks'} (${parts.join(', ')})`;
}

export const unixToDate = (seconds: number): Date | null => (seconds > 0 ? new Date(seconds * 1000) : null);
