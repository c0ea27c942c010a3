import { Suspense } from 'react';
import { chartQueues, combineHistory } from '@/components/overview/combine-history';
import { HistoryPanel } from '@/components/overview/history-panel';
import { LiveOverview } from '@/components/overview/live-overview';
import type { QueueStatsDto } from '@/lib/contract/queues';
import { ApiError } from '@/lib/query/fetcher';
import type { OverviewViewState } from '@/lib/url-state';
import { loadHistory, loadLive, loadQueues, type LoadError } from '../_data/load';
import { NotFoundCalloutData } from './not-found-callout-data';

const asError = (e: LoadError) => new ApiError(e.code === 'redis_unavailable' ? 503 : 500, e.code, e.message);

/**
 * The overview's data at a visit: the live snapshot's view (totals and one page of the queue
 * table, then kept live by the poller), the chosen queues' history, and, streamed in, the tasks
 * that failed because no handler was found. Only the live part follows the ticks: the chart and
 * the callout are read again when the URL changes or the page is opened again.
 */
export async function OverviewData({ view }: { view: OverviewViewState }) {
  const seed = await loadLive({ page: view.page, q: view.q });
  const queues = seed.snapshot.error || !seed.snapshot.totals?.queues ? null : await loadQueues();
  if (!queues?.ok) return <LiveOverview seed={seed} view={view} callout={null}>{null}</LiveOverview>;
  return (
    <LiveOverview
      seed={seed}
      view={view}
      callout={
        <Suspense>
          <NotFoundCalloutData queues={queues.data} />
        </Suspense>
      }
    >
      <History view={view} queues={queues.data} />
    </LiveOverview>
  );
}

async function History({ view, queues }: { view: OverviewViewState; queues: QueueStatsDto[] }) {
  const chosen = chartQueues(queues, view.chart);
  const history = await loadHistory(chosen.map((q) => q.queue), view.days);
  // The chart's menu: the busiest queues (what "all" sums) and the one shown, not thousands.
  const choices = [...new Set([...chartQueues(queues, '').map((q) => q.queue), ...(view.chart ? [view.chart] : [])])].sort();
  return (
    <HistoryPanel
      queues={choices}
      queueCount={queues.length}
      view={view}
      days={history.ok ? combineHistory(history.data, chosen) : null}
      error={history.ok ? null : asError(history.error)}
    />
  );
}
