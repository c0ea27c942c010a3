'use client';

import { useSettings } from '@/lib/query/settings';
import { formatDuration } from '@/lib/utils';

/** The viewer's refresh setting (it lives in localStorage, so only the browser knows it). */
export function PollStatus() {
  const [{ pollIntervalMs }] = useSettings();
  return <span>{pollIntervalMs > 0 ? `Refreshing every ${formatDuration(pollIntervalMs / 1000)}` : 'Auto-refresh off'}</span>;
}
