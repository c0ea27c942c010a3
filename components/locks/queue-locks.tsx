'use client';

import { useMemo, useState } from 'react';
import { EmptyState, ErrorState } from '@/components/common/states';
import { SkeletonRows } from '@/components/ui/skeleton';
import type { LockDto } from '@/lib/contract/diagnostics';
import { queueLocksQuery } from '@/lib/query/locks';
import type { LockFilter, QueueTabState } from '@/lib/url-state';
import { FindingFilter } from './finding-filter';
import { FocusedLock } from './focused-lock';
import { compareLocks, countFindings, FILTER_LABEL, matchesFilter } from './lock-labels';
import { LockListStatus } from './lock-list-status';
import { LocksTable } from './locks-table';
import { ReleaseLockDialog } from './release-lock-dialog';
import { useLockPages } from './use-lock-pages';

interface Props {
  qname: string;
  view: QueueTabState;
  readOnly: boolean;
  onView: (patch: { key?: null; finding?: LockFilter | null }) => void;
}

/** A queue's Locks tab: every unique lock with its holder and findings, one of them maybe in focus. */
export function QueueLocks({ qname, view, readOnly, onView }: Props) {
  const { query, rows, complete, scanning, readMore } = useLockPages(queueLocksQuery(qname));
  const [releasing, setReleasing] = useState<LockDto | null>(null);
  const sorted = useMemo(() => [...rows].sort((a, b) => compareLocks(a.lock, b.lock)), [rows]);
  const counts = useMemo(() => countFindings(rows.map((r) => r.lock)), [rows]);
  const shown = sorted.filter((r) => matchesFilter(r.lock, view.finding));
  const onRelease = readOnly ? null : setReleasing;
  return (
    <>
      {view.key && <FocusedLock qname={qname} lockKey={view.key} onRelease={onRelease} onClear={() => onView({ key: null })} />}
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-3 py-2">
        <FindingFilter counts={counts} total={rows.length} active={view.finding} onChange={(finding) => onView({ finding: finding ?? null })} />
        <LockListStatus count={rows.length} complete={complete} scanning={scanning} onReadMore={readMore} />
      </div>
      {query.isPending ? (
        <SkeletonRows />
      ) : query.isError && rows.length === 0 ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} title="Could not read the locks" />
      ) : shown.length === 0 ? (
        <EmptyState title={view.finding ? `No locks: ${FILTER_LABEL[view.finding].toLowerCase()}` : scanning ? 'No locks found yet' : 'No unique locks in this queue'}>
          A lock exists while a task enqueued with asynq&apos;s Unique option waits, runs or retries, and until its TTL ends.
        </EmptyState>
      ) : (
        <LocksTable rows={shown} showQueue={false} focusKey={view.key} onRelease={onRelease} />
      )}
      <ReleaseLockDialog lock={releasing} onClose={() => setReleasing(null)} />
    </>
  );
}
