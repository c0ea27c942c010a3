import { HistoryChart, type DayPoint } from '@/components/charts/history-chart';
import { ErrorState } from '@/components/common/states';
import { Link } from '@/components/ui/link';
import { Panel } from '@/components/ui/panel';
import { withQuery } from '@/lib/paths';
import type { ApiError } from '@/lib/query/fetcher';
import { HISTORY_DAYS, overviewQuery, type OverviewViewState } from '@/lib/url-state';
import { cn, errorRate, formatNumber, formatPercent } from '@/lib/utils';
import { ChartQueueSelect } from './chart-queue-select';
import { MAX_AGGREGATED } from './combine-history';

interface Props {
  /** The queues the chart may show: the busiest (what "all" sums) and the one shown. */
  queues: string[];
  /** Every queue's count, for the "all" option's label. */
  queueCount: number;
  view: OverviewViewState;
  days: DayPoint[] | null;
  error: ApiError | null;
}

function Legend({ color, label }: { color: string; label: string }) {
  return (
    <span className="flex items-center gap-1.5">
      <span className="size-2 rounded-sm" style={{ background: color }} />
      {label}
    </span>
  );
}

/** The daily chart with its range and queue controls (both in the URL). */
export function HistoryPanel({ queues, queueCount, view, days, error }: Props) {
  const total = (days ?? []).reduce((t, d) => ({ p: t.p + d.processed, f: t.f + d.failed }), { p: 0, f: 0 });
  const rate = errorRate(total.p, total.f);
  return (
    <Panel
      title="Processed per day"
      actions={
        <>
          <ChartQueueSelect
            queues={queues}
            view={view}
            allLabel={queueCount > MAX_AGGREGATED ? `Busiest ${MAX_AGGREGATED} queues` : 'All queues'}
          />
          <nav aria-label="Days shown" className="flex rounded-md border border-line-strong p-0.5">
            {HISTORY_DAYS.map((d) => (
              <Link
                key={d}
                replace
                href={withQuery('/', overviewQuery({ ...view, days: d }))}
                aria-current={d === view.days ? 'page' : undefined}
                className={cn('rounded px-2 py-0.5 text-xs', d === view.days ? 'bg-hover font-medium text-fg' : 'text-muted hover:text-fg')}
              >
                {d}d
              </Link>
            ))}
          </nav>
        </>
      }
    >
      {error || !days ? (
        <ErrorState error={error} title="Could not load the history" />
      ) : (
        <div className="flex flex-col gap-3">
          <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted">
            <Legend color="var(--chart-processed)" label="Succeeded" />
            <Legend color="var(--chart-failed)" label="Failed" />
            <span className="tabular ml-auto">
              {view.days} days: <span className="text-fg">{formatNumber(total.p)}</span> processed ·{' '}
              <span className="text-fg">{formatNumber(total.f)}</span> failed{rate !== null && ` (${formatPercent(rate)})`}
            </span>
          </div>
          <HistoryChart days={days} />
        </div>
      )}
    </Panel>
  );
}
