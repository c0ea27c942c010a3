'use client';

import { useMemo, useState } from 'react';
import { PageHeader } from '@/components/common/page-header';
import { EmptyState, ErrorState } from '@/components/common/states';
import { useSearchState } from '@/components/common/use-search-state';
import { Panel } from '@/components/ui/panel';
import { Select } from '@/components/ui/select';
import { SkeletonRows } from '@/components/ui/skeleton';
import type { LockDto } from '@/lib/contract/diagnostics';
import { useReadOnly } from '@/lib/query/health';
import { allLocksQuery } from '@/lib/query/locks';
import { parseUniquenessView } from '@/lib/url-state';
import { FindingCards } from './finding-cards';
import { compareLocks, countFindings, FILTER_LABEL, matchesFilter } from './lock-labels';
import { LockListStatus } from './lock-list-status';
import { LocksTable } from './locks-table';
import { ReleaseLockDialog } from './release-lock-dialog';
import { useLockPages } from './use-lock-pages';
import { escapeText } from '@/lib/display-text';

/**
 * Every unique lock in Redis, across queues (removed queues too): how many have each finding,
 * and the locks themselves. The filter lives in the URL.
 */
export function UniquenessView() {
  const [view, setView] = useSearchState(parseUniquenessView);
  const readOnly = useReadOnly();
  const { query, rows, complete, scanning, readMore } = useLockPages(allLocksQuery());
  const [releasing, setReleasing] = useState<LockDto | null>(null);
  const queues = useMemo(() => [...new Set(rows.map((r) => r.lock.queue))].sort(), [rows]);
  const inQueue = useMemo(() => rows.filter((r) => !view.queue || r.lock.queue === view.queue), [rows, view.queue]);
  const counts = useMemo(() => countFindings(inQueue.map((r) => r.lock)), [inQueue]);
  const shown = useMemo(
    () => inQueue.filter((r) => matchesFilter(r.lock, view.finding)).sort((a, b) => compareLocks(a.lock, b.lock)),
    [inQueue, view.finding],
  );
  return (
    <>
      <PageHeader
        title="Uniqueness"
        meta={<span>Unique locks across every queue: who holds each, for how long, and what stands in the way of the next enqueue.</span>}
      />
      <FindingCards
        counts={counts}
        total={inQueue.length}
        queues={view.queue ? 1 : queues.length}
        active={view.finding}
        onChange={(finding) => setView({ finding: finding ?? null }, 'replace')}
      />
      <Panel
        flush
        title={view.finding ? `Locks: ${FILTER_LABEL[view.finding].toLowerCase()}` : 'Locks'}
        actions={
          <>
            <LockListStatus count={rows.length} complete={complete} scanning={scanning} onReadMore={readMore} />
            <Select aria-label="Queue" value={view.queue} onChange={(e) => setView({ queue: e.target.value || null }, 'replace')}>
              <option value="">All queues</option>
              {view.queue && !queues.includes(view.queue) && <option value={view.queue}>{escapeText(view.queue)}</option>}
              {queues.map((q) => (
                <option key={q} value={q}>
                  {escapeText(q)}

                </option>
              ))}
            </Select>
          </>
        }
      >
        {query.isPending ? (
          <SkeletonRows />
        ) : query.isError && rows.length === 0 ? (
          <ErrorState error={query.error} onRetry={() => void query.refetch()} title="Could not read the locks" />
        ) : shown.length === 0 ? (
          <EmptyState title={rows.length === 0 && !scanning ? 'No unique locks' : 'No locks match'}>
            A lock exists while a task enqueued with asynq&apos;s Unique option waits, runs or retries, and until its TTL ends.
          </EmptyState>
        ) : (
          <LocksTable rows={shown} showQueue onRelease={readOnly ? null : setReleasing} />
        )}
      </Panel>
      <ReleaseLockDialog lock={releasing} onClose={() => setReleasing(null)} />
    </>
  );
}
