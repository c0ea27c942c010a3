import { Suspense } from 'react';
import { EmptyState, ErrorState } from '@/components/common/states';
import { chartQueues, combineHistory } from '@/components/overview/combine-history';
import { Overview } from '@/components/overview/overview';
import { Panel } from '@/components/ui/panel';
import { ApiError } from '@/lib/query/fetcher';
import type { OverviewViewState } from '@/lib/url-state';
import { loadHistory, loadQueues, type LoadError } from '../_data/load';
import { NotFoundCalloutData } from './not-found-callout-data';

const asError = (e: LoadError) => new ApiError(e.code === 'redis_unavailable' ? 503 : 500, e.code, e.message);

/**
 * The overview's data, read on the server: the queue snapshot, then the chosen queues' history
 * (and, streamed in, the tasks that failed because no handler was found).
 * Re-read on every AutoRefresh tick.
 */
export async function OverviewData({ view }: { view: OverviewViewState }) {
  const queues = await loadQueues();
  if (!queues.ok) {
    return (
      <Panel flush>
        <ErrorState error={asError(queues.error)} title="Could not load the queues" />
      </Panel>
    );
  }
  if (queues.data.length === 0) {
    return (
      <Panel flush>
        <EmptyState title="No queues yet">
          Asynq registers a queue when the first task is enqueued to it. Nothing has been enqueued to this Redis database yet.
        </EmptyState>
      </Panel>
    );
  }
  const chosen = chartQueues(queues.data, view.chart);
  const history = await loadHistory(chosen.map((q) => q.queue), view.days);
  return (
    <>
      <Suspense>
        <NotFoundCalloutData queues={queues.data} />
      </Suspense>
      <Overview
        queues={queues.data}
        view={view}
        days={history.ok ? combineHistory(history.data, chosen) : null}
        historyError={history.ok ? null : asError(history.error)}
      />
    </>
  );
}
