'use client';

import { useRouter } from 'next/navigation';
import { startTransition, useEffect, useRef } from 'react';
import { DOWN_PROBE_MS, pollDelay, SHELL_REFRESH_EVENT } from '@/lib/query/poll-policy';
import { useSettings } from '@/lib/query/settings';

interface Props {
  /** Changes when the server-rendered data changed (counts, not timestamps). */
  fingerprint: string;
  /** The last render could not read Redis: probe every 2 s until it can. */
  failing: boolean;
}

/**
 * Re-renders the server-rendered parts (the overview, the sidebar, the Redis banner) with
 * `router.refresh()`, on the same policy as every polled query (poll-policy.ts): the interval
 * from the settings, nothing while the tab is hidden (one refresh when it shows again),
 * stretched while nothing changes. A mutation, or a query that meets `redis_unavailable`, asks
 * for a refresh at once (SHELL_REFRESH_EVENT): counts and the banner do not wait for a tick.
 */
export function AutoRefresh({ fingerprint, failing }: Props) {
  const router = useRouter();
  const [{ pollIntervalMs }] = useSettings();
  const latest = useRef({ fingerprint, changedAt: 0, failing });
  useEffect(() => {
    if (latest.current.fingerprint !== fingerprint || latest.current.changedAt === 0) {
      latest.current = { fingerprint, changedAt: Date.now(), failing };
    }
    latest.current.failing = failing;
  }, [fingerprint, failing]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => startTransition(() => router.refresh());
    const schedule = () => {
      clearTimeout(timer);
      const { changedAt, failing: f } = latest.current;
      const delay = pollDelay({ baseMs: pollIntervalMs, idleMs: Date.now() - changedAt, failing: f, failingMs: DOWN_PROBE_MS });
      if (delay === false) return;
      // Fire on wall-clock multiples of the interval, so every open tab asks at the same
      // moment and they all share one server-side snapshot: 20 tabs then cost Redis what one does.
      timer = setTimeout(() => {
        if (!document.hidden) refresh();
        schedule();
      }, delay - (Date.now() % delay));
    };
    const onVisible = () => {
      if (document.hidden) return;
      refresh();
      schedule();
    };
    const onAsk = () => {
      refresh();
      schedule();
    };
    schedule();
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener(SHELL_REFRESH_EVENT, onAsk);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener(SHELL_REFRESH_EVENT, onAsk);
    };
  }, [router, pollIntervalMs, failing]);
  return null;
}
