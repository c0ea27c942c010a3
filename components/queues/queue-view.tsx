'use client';

import { useQuery } from '@tanstack/react-query';
import { useSearchState } from '@/components/common/use-search-state';
import { QueueLocks } from '@/components/locks/queue-locks';
import { QueryBox } from '@/components/search/query-box';
import { SearchResults } from '@/components/search/search-results';
import { useSearchSnapshot } from '@/components/search/use-search-run';
import { TaskTable } from '@/components/tasks/task-table';
import type { QueryPairs } from '@/lib/paths';
import { useReadOnly } from '@/lib/query/health';
import { filterKey } from '@/lib/query/search';
import { taskListQuery } from '@/lib/query/tasks';
import { parseQueueTab, parseQueueView, type QueueViewState } from '@/lib/url-state';

/**
 * A state tab's filter: a search query over this queue and state. Empty, the tab is the plain
 * paged list; otherwise the search's results (the server parses the query, scoped by the
 * queue and state parameters it ANDs with).
 */
function FilteredTasks({ qname, view, readOnly, onView }: { qname: string; view: QueueViewState; readOnly: boolean; onView: (patch: Record<string, string | number | null>) => void }) {
  const filter: QueryPairs = [['queue', qname], ['state', view.state], ['q', view.q]];
  const search = useSearchSnapshot(filter);
  const list = useQuery({ ...taskListQuery(qname, view), enabled: false });
  return (
    <>
      <div className="border-b border-line p-3">
        <QueryBox
          value={view.q}
          onSubmit={(q) => onView({ q: q || null, page: null })}
          error={view.q ? search.error : null}
          tasks={view.q ? search.tasks : (list.data?.tasks ?? [])}
          label={`Filter ${view.state} tasks`}
          placeholder={`Filter ${view.state} tasks: user_id:42 · type:email:* · 3f2c81a0 · amount>100`}
        />
      </div>
      {view.q ? (
        <SearchResults key={filterKey(filter)} filter={filter} />
      ) : (
        <TaskTable qname={qname} view={view} readOnly={readOnly} onPage={(p) => onView(p)} />
      )}
    </>
  );
}

/**
 * The queue page's content below its tabs (see QueueFrame): the chosen state's tasks, or the
 * queue's unique locks. State lives in the URL.
 */
export function QueueView({ qname }: { qname: string }) {
  const [view, setView] = useSearchState(parseQueueView);
  const [tab, setTab] = useSearchState(parseQueueTab);
  const readOnly = useReadOnly();
  return tab.tab === 'locks' ? (
    <QueueLocks qname={qname} view={tab} readOnly={readOnly} onView={(patch) => setTab(patch, 'replace')} />
  ) : (
    <FilteredTasks qname={qname} view={view} readOnly={readOnly} onView={setView} />
  );
}
