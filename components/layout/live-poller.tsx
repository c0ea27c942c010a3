'use client';

import { useLivePolling } from '@/lib/query/live-snapshot';
import { useSettings } from '@/lib/query/settings';

/** The tab's one poller of the live snapshot (lib/query/live-snapshot.ts), at the viewer's interval. */
export function LivePoller() {
  const [{ pollIntervalMs }] = useSettings();
  useLivePolling(pollIntervalMs);
  return null;
}
