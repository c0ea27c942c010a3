/**
 * The one way a TanStack query polls: every polled query spreads `usePollInterval()` into its
 * options, and nothing else sets `refetchInterval`. The policy (interval from the settings,
 * stretched while idle, probing while failing) is poll-policy.ts, shared with the live snapshot poller.
 * Hidden tabs do not poll (`refetchIntervalInBackground: false`); TanStack refetches on focus.
 */
import { useMemo } from 'react';
import { pollDelay } from './poll-policy';
import { useSettings } from './settings';

interface PolledQuery<T> {
  state: { data: T | undefined; status: 'pending' | 'error' | 'success' };
}

interface Options<T> {
  /** What counts as "changed"; defaults to the data's identity (TanStack keeps equal data's reference). */
  fingerprint?: (data: T) => unknown;
  /** Ends polling for data that cannot change any more (a completed task). */
  stopWhen?: (data: T) => boolean;
  /** Keep probing this often while the query fails, even with polling off. */
  whileFailingMs?: number;
  /** Never stretch. */
  steady?: boolean;
  /**
   * A job the viewer started (a duplicate scan): read its progress this often until `stopWhen`,
   * whatever the setting, since watching it finish is the point of the page.
   */
  progressMs?: number;
}

const seen = new WeakMap<object, { fp: unknown; changedAt: number }>();

export function usePollInterval<T>(opts: Options<T> = {}) {
  const [{ pollIntervalMs }] = useSettings();
  const { fingerprint, stopWhen, whileFailingMs, steady, progressMs } = opts;
  return useMemo(() => {
    const refetchInterval = (query: PolledQuery<T>): number | false => {
      const data = query.state.data;
      const failing = query.state.status === 'error';
      if (data !== undefined && !failing && stopWhen?.(data)) return false;
      if (progressMs && !failing) return progressMs;
      let idleMs = 0;
      if (data !== undefined) {
        const fp = fingerprint ? fingerprint(data) : data;
        const prev = seen.get(query);
        if (!prev || prev.fp !== fp) seen.set(query, { fp, changedAt: Date.now() });
        else idleMs = Date.now() - prev.changedAt;
      }
      return pollDelay({ baseMs: pollIntervalMs, idleMs, failing, failingMs: whileFailingMs, steady });
    };
    return { refetchInterval, refetchIntervalInBackground: false };
  }, [pollIntervalMs, fingerprint, stopWhen, whileFailingMs, steady, progressMs]);
}
