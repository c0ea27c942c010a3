'use client';

import { TD } from '@/components/ui/table';
import { cn, formatRelative, formatTimestamp } from '@/lib/utils';
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

/** A table cell with a relative time: unbroken and, unless `muted` is false, muted. */
export function RelativeTimeCell({ iso, muted = true, className }: { iso: string | null; muted?: boolean; className?: string }) {
  return (
    <TD className={cn('whitespace-nowrap', muted && 'text-muted', className)}>
      <RelativeTime iso={iso} />
    </TD>
  );
}
