'use client';

import { useNow } from '@/components/common/use-now';
import { Badge } from '@/components/ui/badge';
import { formatDuration, formatTimestamp } from '@/lib/utils';

interface Props {
  /** Seconds left when read; -1 = no expiry. */
  ttlSeconds: number;
  /** When it was read (epoch ms): the countdown runs from there, so server clock skew cannot shift it. */
  fetchedAt: number;
  expiresAt: string | null;
}

/** Time a lock has left, ticking every second. */
export function LockTtl({ ttlSeconds, fetchedAt, expiresAt }: Props) {
  const now = useNow();
  if (ttlSeconds < 0) return <Badge tone="amber">no expiry</Badge>;
  const left = Math.max(0, ttlSeconds - (now && fetchedAt ? (now - fetchedAt) / 1000 : 0));
  if (left === 0) return <span className="text-subtle">expired</span>;
  return (
    <span className="tabular" data-testid="lock-ttl" title={expiresAt ? `Expires ${formatTimestamp(expiresAt)}` : undefined}>
      {formatDuration(left)}
    </span>
  );
}
