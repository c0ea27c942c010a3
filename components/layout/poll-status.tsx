'use client';

import { useSettings } from '@/lib/query/settings';

/** The viewer's refresh setting (it lives in localStorage, so only the browser knows it). */
export function PollStatus() {
  const [{ pollIntervalMs }] = useSettings();
  return <span>{pollIntervalMs > 0 ? `Refreshing every ${pollIntervalMs / 1000} s` : 'Auto-refresh off'}</span>;
}
