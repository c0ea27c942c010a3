'use client';

import { RelativeTime } from '@/components/common/relative-time';
import { StateBadge } from '@/components/tasks/state-badge';
import { Badge } from '@/components/ui/badge';
import { Link } from '@/components/ui/link';
import type { LockDto } from '@/lib/contract/diagnostics';
import { paths } from '@/lib/paths';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';

/** The task holding a lock: a link to it, or its ID struck through once its record is gone. */
export function LockHolder({ lock }: { lock: LockDto }) {
  if (lock.holderState === null) {
    return (
      <span className="block truncate font-mono text-xs text-subtle line-through" title={escapeText(`${lock.holderId} (gone)`)}>
        <SafeText text={lock.holderId} />
      </span>
    );
  }
  return (
    <Link href={paths.task(lock.queue, lock.holderId)} className="block truncate font-mono text-xs text-accent hover:underline" title={escapeText(lock.holderId)}>
      <SafeText text={lock.holderId} />

    </Link>
  );
}

/** The holder's state; a retrying holder also shows its attempts and when it runs next. */
export function HolderState({ lock }: { lock: LockDto }) {
  if (lock.holderState === null) return <Badge tone="red">gone</Badge>;
  return (
    <span className="flex items-center gap-1.5 whitespace-nowrap">
      <StateBadge state={lock.holderState} />
      {lock.holderState === 'retry' && lock.holderRetried !== null && (
        <span className="text-xs text-muted">
          <span className="tabular">
            {lock.holderRetried}/{lock.holderMaxRetry ?? '?'}
          </span>
          {lock.holderNextAttemptAt && (
            <>
              {' · next '}
              <RelativeTime iso={lock.holderNextAttemptAt} />
            </>
          )}
        </span>
      )}
    </span>
  );
}
