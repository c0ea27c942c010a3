'use client';

import { PolledList, usePolledList } from '@/components/common/polled-list';
import { useSearchState } from '@/components/common/use-search-state';
import { schedulerListQuery } from '@/lib/query/schedulers';
import { parseSchedulersView } from '@/lib/url-state';
import { EnqueueEventsPanel } from './enqueue-events-panel';
import { SchedulerEntriesTable } from './scheduler-entries-table';

export function SchedulersView() {
  const [view, setView] = useSearchState(parseSchedulersView);
  const query = usePolledList(schedulerListQuery());
  const entries = query.data?.entries ?? [];
  const selected = entries.find((e) => e.id === view.entry) ?? entries[0];
  return (
    <>
      <PolledList
        title="Schedulers"
        query={query}
        meta={(data) => <span>{data.entries.length} periodic tasks</span>}
        errorTitle="Could not load the scheduler entries"
        empty={{
          when: (data) => data.entries.length === 0,
          title: 'No periodic tasks',
          text: 'Entries appear here while an asynq Scheduler (or PeriodicTaskManager) is running and registering them.',
        }}
      >
        {() => <SchedulerEntriesTable entries={entries} selected={selected?.id} onSelect={(entry) => setView({ entry, page: null }, 'replace')} />}
      </PolledList>
      {selected && <EnqueueEventsPanel key={selected.id} entry={selected} page={view.page} onPage={(page) => setView({ page })} />}
    </>
  );
}
