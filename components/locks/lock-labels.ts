import type { Tone } from '@/components/ui/badge';
import type { LockDto } from '@/lib/contract/diagnostics';
import { LOCK_FINDINGS, type LockFilter } from '@/lib/url-state';

type FindingCode = LockDto['findings'][number]['code'];

/** A finding's name in a badge or a filter; the API's message says the rest, with its times. */
export const FINDING_LABEL: Record<FindingCode, string> = {
  held_by_archived: 'Held by an archived task',
  orphaned: 'Orphaned',
  expires_before_retries_end: 'Expires before retries end',
  no_expiry: 'No expiry',
};

/** Red: enqueues are refused for nothing. Amber: a duplicate can slip in, or nothing ever ends it. */
export const FINDING_TONE: Record<FindingCode, Tone> = {
  held_by_archived: 'red',
  orphaned: 'red',
  expires_before_retries_end: 'amber',
  no_expiry: 'amber',
};

export const FILTER_LABEL: Record<LockFilter, string> = { ...FINDING_LABEL, healthy: 'No finding' };

export function matchesFilter(lock: LockDto, filter: LockFilter | undefined): boolean {
  if (!filter) return true;
  if (filter === 'healthy') return lock.findings.length === 0;
  return lock.findings.some((f) => f.code === filter);
}

/** How many locks have each finding (a lock with two counts twice), and how many have none. */
export function countFindings(locks: readonly LockDto[]): Record<LockFilter, number> {
  const counts: Record<LockFilter, number> = { held_by_archived: 0, orphaned: 0, expires_before_retries_end: 0, no_expiry: 0, healthy: 0 };
  for (const l of locks) {
    if (l.findings.length === 0) counts.healthy++;
    for (const f of new Set(l.findings.map((x) => x.code))) counts[f]++;
  }
  return counts;
}

const rank = (lock: LockDto): number => Math.min(...lock.findings.map((f) => LOCK_FINDINGS.indexOf(f.code)), LOCK_FINDINGS.length);

/** Most severe finding first, then by queue, type and key: an order that holds still while polling. */
export function compareLocks(a: LockDto, b: LockDto): number {
  return rank(a) - rank(b) || a.queue.localeCompare(b.queue) || a.taskType.localeCompare(b.taskType) || a.key.localeCompare(b.key);
}
