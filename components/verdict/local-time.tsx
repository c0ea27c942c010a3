'use client';

import { useSyncExternalStore } from 'react';
import { formatTimestamp } from '@/lib/utils';

const noop = () => () => {};

/** "2026-11-30 14:02" in the viewer's time zone; the UTC time on the server render and on hover. */
export function LocalTime({ iso }: { iso: string }) {
  const local = useSyncExternalStore(noop, () => true, () => false);
  const d = new Date(iso);
  const text = local && !Number.isNaN(d.getTime()) ? d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : formatTimestamp(iso);
  return (
    <time dateTime={iso} title={formatTimestamp(iso)}>
      {text}
    </time>
  );
}
