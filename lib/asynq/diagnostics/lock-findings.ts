/**
 * What is wrong with a unique lock, in plain words that say when it matters. Pure: it judges
 * what the listing read, at one instant.
 */
import { utcTime } from '../triage/verdict-words';

export type LockFindingCode = 'held_by_archived' | 'expires_before_retries_end' | 'orphaned' | 'no_expiry';

export interface LockFinding {
  code: LockFindingCode;
  message: string;
}

/** The holder as the listing read it; null fields were not readable. */
export interface LockHolder {
  id: string;
  /** The task hash's state; null when the hash is gone. */
  state: string | null;
  /** MaxRetry and retries so far (from the msg), when read. */
  maxRetry: number | null;
  retried: number | null;
  /** When a retry task runs next (its score in the retry set). */
  nextAttemptAt: Date | null;
  /**
   * The lock key the task itself names (hash field or msg); '' when it names none; null when
   * not read. A task that names another lock never releases this one.
   */
  uniqueKey: string | null;
}

export interface LockFacts {
  key: string;
  /** PTTL in ms; -1 = no expiry. */
  pttlMs: number;
  holder: LockHolder;
  now: Date;
}

/**
 * Times in a finding are read by people: `2026-11-30 03:10:16 UTC`, the console's one
 * exact-time form (the verdicts' words use it too), never an ISO string.
 */
const at = utcTime;

/**
 * asynq's shortest retry delay after the n-th failure, in seconds: its default
 * `n⁴ + 15 + rand[0,30) × (n + 1)` with the random part at 0.
 */
export const minRetryDelay = (n: number): number => n ** 4 + 15;

/**
 * The earliest a retry task can have exhausted its retries: its next attempt, then one
 * minimum delay for every failure that still leads to another retry (n = retried .. max-1;
 * the attempt after the last of them is archived instead). With no retries left that is the
 * next attempt itself.
 */
export function retriesEndEstimate(nextAttemptAt: Date, retried: number, maxRetry: number): Date {
  let seconds = 0;
  for (let n = Math.max(retried, 0); n < maxRetry; n++) seconds += minRetryDelay(n);
  return new Date(nextAttemptAt.getTime() + seconds * 1000);
}

function refusedUntil(expiresAt: Date | null): string {
  return expiresAt ? `until ${at(expiresAt)} (when the lock's TTL ends)` : 'until the lock is deleted (it has no expiry)';
}

function retryFinding(holder: LockHolder, expiresAt: Date): LockFinding | null {
  const next = holder.nextAttemptAt;
  if (next === null) return null;
  const from = at(expiresAt);
  if (next.getTime() > expiresAt.getTime()) {
    return {
      code: 'expires_before_retries_end',
      message: `The lock expires at ${from}, before task ${holder.id}'s next retry at ${at(next)}: ` +
        `a duplicate can be enqueued from ${from} while this task is still waiting to retry.`,
    };
  }
  if (holder.retried === null || holder.maxRetry === null || holder.retried >= holder.maxRetry) return null;
  const end = retriesEndEstimate(next, holder.retried, holder.maxRetry);
  if (end.getTime() <= expiresAt.getTime()) return null;
  const left = holder.maxRetry - holder.retried;
  return {
    code: 'expires_before_retries_end',
    message: `A duplicate can be enqueued from ${from} (lock expiry) while task ${holder.id} may still be retrying ` +
      `until ~${at(end)} (${left} ${left === 1 ? 'retry' : 'retries'} left after the next attempt at ` +
      `${at(next)}; estimated with asynq's shortest default delays, n⁴+15 s).`,
  };
}

function orphanFinding(holder: LockHolder, key: string, until: string): LockFinding | null {
  if (holder.state === null) {
    return {
      code: 'orphaned',
      message: `Task ${holder.id}, which holds this lock, no longer exists; enqueues of this type and payload are refused ${until}. Releasing it is safe.`,
    };
  }
  if (holder.state === 'completed') {
    return {
      code: 'orphaned',
      message: `Task ${holder.id} completed, which releases its lock, yet the lock is still held: it leaked, and enqueues of this type and payload are refused ${until}. Releasing it is safe.`,
    };
  }
  if (holder.uniqueKey !== null && holder.uniqueKey !== key) {
    const names = holder.uniqueKey === '' ? 'names no unique lock' : `names another lock (${holder.uniqueKey})`;
    return {
      code: 'orphaned',
      message: `Task ${holder.id} (${holder.state}) holds this lock but ${names}, so it will never release it; enqueues of this type and payload are refused ${until}.`,
    };
  }
  return null;
}

/** Every finding of one lock, most severe first; empty for a healthy lock. */
export function lockFindings({ key, pttlMs, holder, now }: LockFacts): LockFinding[] {
  const expiresAt = pttlMs >= 0 ? new Date(now.getTime() + pttlMs) : null;
  const until = refusedUntil(expiresAt);
  const out: LockFinding[] = [];
  const orphan = orphanFinding(holder, key, until);
  if (orphan) out.push(orphan);
  if (holder.state === 'archived') {
    out.push({
      code: 'held_by_archived',
      message: `Held by archived task ${holder.id}, which will not run again unless it is run by hand: ` +
        `re-enqueue of this type and payload is refused ${until}.`,
    });
  }
  if (holder.state === 'retry' && expiresAt !== null) {
    const f = retryFinding(holder, expiresAt);
    if (f) out.push(f);
  }
  if (pttlMs === -1) {
    out.push({
      code: 'no_expiry',
      message: 'This lock has no expiry: every enqueue of this type and payload into this queue is refused until the lock is deleted.',
    });
  }
  return out;
}
