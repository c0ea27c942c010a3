'use client';

import { useSearchState } from '@/components/common/use-search-state';
import { QueueLocks } from '@/components/locks/queue-locks';
import { TaskTable } from '@/components/tasks/task-table';
import { useReadOnly } from '@/lib/query/health';
import { parseQueueTab, parseQueueView } from '@/lib/url-state';

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
    <TaskTable qname={qname} view={view} readOnly={readOnly} onPage={(p) => setView(p)} />
  );
}
