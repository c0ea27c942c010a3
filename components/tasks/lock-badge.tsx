'use client';

import { Link } from '@/components/ui/link';
import { useNow } from '@/components/common/use-now';
import { Badge } from '@/components/ui/badge';
import { Icon } from '@/components/ui/icons';
import type { UniqueLockDto } from '@/lib/contract/tasks';
import { paths } from '@/lib/paths';
import { formatDuration } from '@/lib/utils';

/** Seconds a lock has left now, from its TTL when it was read (`fetchedAt`, epoch ms). */
export function useLockRemaining(lock: UniqueLockDto, fetchedAt: number): number | null {
  const now = useNow();
  if (lock.ttlSeconds === null || lock.ttlSeconds < 0) return lock.ttlSeconds;
  const elapsed = now && fetchedAt ? (now - fetchedAt) / 1000 : 0;
  return Math.max(0, lock.ttlSeconds - elapsed);
}

/** The unique lock in a table cell: held by this task (with a live TTL), by another, or gone. */
export function LockBadge({ lock, fetchedAt, qname }: { lock: UniqueLockDto; fetchedAt: number; qname: string }) {
  const left = useLockRemaining(lock, fetchedAt);
  if (left === null || (left === 0 && lock.ttlSeconds !== -1)) {
    return <Badge title={lock.key}>lock gone</Badge>;
  }
  const ttl = left < 0 ? 'no expiry' : formatDuration(left);
  if (!lock.ownedByThisTask) {
    return (
      <Badge tone="amber" title={`${lock.key} is held by ${lock.holderId ?? 'another task'}`}>
        <Icon name="lock" size={11} />
        {lock.holderId ? (
          <Link href={paths.task(qname, lock.holderId)} className="hover:underline" onClick={(e) => e.stopPropagation()}>
            other · {ttl}
          </Link>
        ) : (
          `other · ${ttl}`
        )}
      </Badge>
    );
  }
  return (
    <Badge tone="violet" title={lock.key}>
      <Icon name="lock" size={11} />
      <span className="tabular">{ttl}</span>
    </Badge>
  );
}
