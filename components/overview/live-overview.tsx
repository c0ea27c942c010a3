'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef, type ReactNode } from 'react';
import { EmptyState, ErrorState } from '@/components/common/states';
import { Link } from '@/components/ui/link';
import { Panel } from '@/components/ui/panel';
import { ApiError } from '@/lib/query/fetcher';
import { useLiveTable } from '@/lib/query/live-snapshot';
import type { LiveSeed } from '@/lib/query/live-view';
import { paths, withQuery } from '@/lib/paths';
import { overviewQuery, type OverviewViewState } from '@/lib/url-state';
import { formatNumber } from '@/lib/utils';
import { QueueStatsTable } from './queue-stats-table';
import { SummaryCards } from './summary-cards';

interface Props {
  seed: LiveSeed;
  view: OverviewViewState;
  /** Server-rendered, read once per visit: the handler-not-found callout (above the totals)… */
  callout: ReactNode;
  /** …and the daily chart (below the table). */
  children: ReactNode;
}

/**
 * The overview's live part: the totals and one page of the queue table, from the live snapshot
 * every tab shares (the server renders it first with data; then it follows the poller). The
 * table is paged and filtered on the server, so a thousand queues cost what a hundred do.
 */
export function LiveOverview({ seed, view, callout, children }: Props) {
  const { snapshot, ageSeconds } = useLiveTable(seed, { page: view.page, q: view.q });
  const { error, totals, table } = snapshot;
  const shown = !error && totals !== null && totals.queues > 0;
  useRefreshWhenShown(shown && !(seed.snapshot.error === null && (seed.snapshot.totals?.queues ?? 0) > 0));
  if (error || !totals || !table) {
    const e = error ?? { code: 'internal', message: 'No queue table in the snapshot.' };
    return (
      <Panel flush>
        <ErrorState error={new ApiError(e.code === 'redis_unavailable' ? 503 : 500, e.code, e.message)} title="Could not load the queues" />
      </Panel>
    );
  }
  if (totals.queues === 0) {
    return (
      <Panel flush>
        <EmptyState title="No queues yet">
          Asynq registers a queue when the first task is enqueued to it. Nothing has been enqueued to this Redis database yet.
        </EmptyState>
      </Panel>
    );
  }
  const pages = Math.max(1, Math.ceil(table.matching / table.pageSize));
  const at = (page: number) => withQuery(paths.overview(), overviewQuery({ ...view, page }));
  const paged = pages > 1 || table.q !== '' || totals.queues > table.pageSize;
  return (
    <>
      {callout}
      <SummaryCards totals={totals} ageSeconds={ageSeconds} />
      <Panel
        title="Queues"
        flush
        actions={
          paged && (
            <form action={paths.overview()} role="search" className="flex items-center gap-2 text-xs text-muted">
              {view.days !== 14 && <input type="hidden" name="days" value={view.days} />}
              {view.chart && <input type="hidden" name="chart" value={view.chart} />}
              <input
                name="q"
                type="search"
                defaultValue={table.q}
                aria-label="Filter queues by name"
                placeholder="Filter by name…"
                className="h-7 w-48 rounded-md border border-line-strong bg-panel px-2 text-[12px] text-fg placeholder:text-subtle"
              />
            </form>
          )
        }
      >
        <QueueStatsTable queues={table.rows} totals={totals} ageSeconds={ageSeconds} />
        {paged && (
          <nav aria-label="Queue pages" className="flex items-center gap-3 border-t border-line px-3 py-2 text-xs text-muted">
            <span className="tabular">
              {table.matching === 0
                ? 'No queue matches'
                : `${formatNumber((table.page - 1) * table.pageSize + 1)}–${formatNumber((table.page - 1) * table.pageSize + table.rows.length)} of ${formatNumber(table.matching)}${table.q ? ` matching “${table.q}”` : ''} queues`}
            </span>
            <span className="ml-auto flex gap-2">
              {table.page > 1 && (
                <Link href={at(table.page - 1)} replace className="hover:text-fg hover:underline">
                  ← Previous
                </Link>
              )}
              <span className="tabular">
                page {table.page} of {pages}
              </span>
              {table.page < pages && (
                <Link href={at(table.page + 1)} replace className="hover:text-fg hover:underline">
                  Next →
                </Link>
              )}
            </span>
          </nav>
        )}
      </Panel>
      {children}
    </>
  );
}

/**
 * The page was first rendered without queues (Redis down, or none yet), so the parts read once
 * per visit are missing: render the page again on the server once the queues show.
 */
function useRefreshWhenShown(missing: boolean) {
  const router = useRouter();
  const done = useRef(false);
  useEffect(() => {
    if (missing && !done.current) {
      done.current = true;
      router.refresh();
    }
  }, [missing, router]);
}
