'use client';

import { formatRelative, formatTimestamp } from '@/lib/utils';
import { useNow } from './use-now';

/** "in 5m" / "3h ago", ticking, with the exact UTC time on hover. */
export function RelativeTime({ iso, className }: { iso: string | null; className?: string }) {
  const now = useNow();
  if (!iso) return <span className="text-subtle">—</span>;
  return (
    <time dateTime={iso} title={formatTimestamp(iso)} className={className}>
      {now ? formatRelative(iso, now) : formatTimestamp(iso)}
    </time>
  );
}
