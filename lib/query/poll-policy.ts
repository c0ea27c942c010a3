/**
 * How often anything on screen re-reads Redis: the one policy behind both kinds of polling,
 * TanStack queries (use-poll-interval.ts) and the live snapshot (live-snapshot.ts).
 *
 * - The base interval is the viewer's setting; 0 turns polling off.
 * - Data that stopped changing is re-read less often: ×2 after a minute, ×4 after five, at most
 *   once a minute; the first change snaps back to the base.
 * - Something failing (Redis unreachable) is probed every `failingMs`, even with polling off,
 *   so the banner clears by itself.
 */

/** While Redis is down the health check probes this often, whatever the poll setting. */
export const DOWN_PROBE_MS = 2000;
const MAX_STRETCHED_MS = 60_000;

/**
 * Fired on window to read the live snapshot (sidebar counts, Redis banner, overview) at once:
 * after a mutation, and when a query meets `redis_unavailable`.
 */
export const SHELL_REFRESH_EVENT = 'asynqlens:refresh-shell';

export function refreshShell(): void {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(SHELL_REFRESH_EVENT));
}

/** The multiplier for data unchanged for `idleMs`. */
export function stretchFactor(idleMs: number): number {
  if (idleMs >= 5 * 60_000) return 4;
  if (idleMs >= 60_000) return 2;
  return 1;
}

interface DelayInput {
  baseMs: number;
  idleMs: number;
  failing?: boolean;
  failingMs?: number;
  /** Never stretch (cheap probes whose job is to notice a change quickly). */
  steady?: boolean;
}

/** Milliseconds until the next read, or false for none. */
export function pollDelay({ baseMs, idleMs, failing, failingMs, steady }: DelayInput): number | false {
  if (failing && failingMs) return failingMs;
  if (baseMs <= 0) return false;
  if (steady) return baseMs;
  return Math.max(baseMs, Math.min(baseMs * stretchFactor(idleMs), MAX_STRETCHED_MS));
}
