'use client';

import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@/components/common/page-header';
import { QueryResult } from '@/components/common/query-result';
import { EmptyState } from '@/components/common/states';
import { useSearchState } from '@/components/common/use-search-state';
import { Panel } from '@/components/ui/panel';
import { schedulerListQuery } from '@/lib/query/schedulers';
import { usePollInterval } from '@/lib/query/use-poll-interval';
import { parseSchedulersView } from '@/lib/url-state';
import { EnqueueEventsPanel } from './enqueue-events-panel';
import { SchedulerEntriesTable } from './scheduler-entries-table';

export function SchedulersView() {
  const [view, setView] = useSearchState(parseSchedulersView);
  const poll = usePollInterval();
  const query = useQuery({ ...schedulerListQuery(), ...poll });
  const { data } = query;
  const entries = data?.entries ?? [];
  const selected = entries.find((e) => e.id === view.entry) ?? entries[0];
  return (
    <>
      <PageHeader title="Schedulers" meta={data && <span>{entries.length} periodic tasks</span>} />
      <Panel flush>
        <QueryResult
          query={query}
          rows={3}
          errorTitle="Could not load the scheduler entries"
          empty={
            entries.length === 0 && (
              <EmptyState title="No periodic tasks">
                Entries appear here while an asynq Scheduler (or PeriodicTaskManager) is running and registering them.
              </EmptyState>
            )
          }
        >
          {() => <SchedulerEntriesTable entries={entries} selected={selected?.id} onSelect={(entry) => setView({ entry, page: null }, 'replace')} />}
        </QueryResult>
      </Panel>
      {selected && <EnqueueEventsPanel key={selected.id} entry={selected} page={view.page} onPage={(page) => setView({ page })} />}
    </>
  );
}
