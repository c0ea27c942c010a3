import type { DayPoint } from '@/components/charts/history-chart';
import { Panel } from '@/components/ui/panel';
import type { QueueStatsDto } from '@/lib/contract/queues';
import type { ApiError } from '@/lib/query/fetcher';
import type { OverviewViewState } from '@/lib/url-state';
import { HistoryPanel } from './history-panel';
import { QueueStatsTable } from './queue-stats-table';
import { SummaryCards } from './summary-cards';

interface Props {
  queues: QueueStatsDto[];
  view: OverviewViewState;
  days: DayPoint[] | null;
  historyError: ApiError | null;
}

/** Totals, every queue, and the daily chart. Server-rendered: it ships no JavaScript of its own. */
export function Overview({ queues, view, days, historyError }: Props) {
  return (
    <>
      <SummaryCards queues={queues} />
      <Panel title="Queues" flush>
        <QueueStatsTable queues={queues} />
      </Panel>
      <HistoryPanel queues={queues.map((q) => q.queue)} view={view} days={days} error={historyError} />
    </>
  );
}
