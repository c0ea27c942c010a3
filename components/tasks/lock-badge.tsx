'use client';

import { Link } from '@/components/ui/link';
import { useNow } from '@/components/common/use-now';
import { Badge } from '@/components/ui/badge';
import { Icon } from '@/components/ui/icons';
import type { UniqueLockDto } from '@/lib/contract/tasks';
import { paths } from '@/lib/paths';
import { formatDuration } from '@/lib/utils';
import { escapeText } from '@/lib/display-text';

/** Seconds a lock has left now, from its TTL when it was read (`fetchedAt`, epoch ms). */
export function useLockRemaining(lock: UniqueLockDto, fetchedAt: number): number | null {
  const now = useNow();
  if (lock.ttlSeconds === null || lock.ttlSeconds < 0) return lock.ttlSeconds;
  const elapsed = now && fetchedAt ? (now - fetchedAt) / 1000 : 0;
  return Math.max(0, lock.ttlSeconds - elapsed);
}

/**
 * The unique lock in a table cell: held by this task (with a live TTL), by another, or gone.
 * It links to the lock on the queue's Locks tab, which shows its holder and findings.
 */
export function LockBadge({ lock, fetchedAt, qname }: { lock: UniqueLockDto; fetchedAt: number; qname: string }) {
  const left = useLockRemaining(lock, fetchedAt);
  if (left === null || (left === 0 && lock.ttlSeconds !== -1)) {
    return <Badge title={escapeText(lock.key)}>lock gone</Badge>;
  }
  const ttl = left < 0 ? 'no expiry' : formatDuration(left);
  const other = !lock.ownedByThisTask;
  return (
    <Link
      href={paths.queueLocks(qname, { key: lock.key })}
      aria-label={other ? 'Unique lock (held by another task)' : 'Unique lock'}
      title={escapeText(other ? `${lock.key} is held by ${lock.holderId ?? 'another task'}` : lock.key)}

      className="inline-flex rounded hover:opacity-80"
    >
      <Badge tone={other ? 'amber' : 'violet'}>
        <Icon name="lock" size={11} />
        <span className="tabular">{other ? `other · ${ttl}` : ttl}</span>
      </Badge>
    </Link>
  );
}
