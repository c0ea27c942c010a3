'use client';

import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { Link } from '@/components/ui/link';
import { ErrorState } from '@/components/common/states';
import { useSearchState } from '@/components/common/use-search-state';
import { QueueLocks } from '@/components/locks/queue-locks';
import { GroupFilter } from '@/components/tasks/group-filter';
import { TaskTable } from '@/components/tasks/task-table';
import { Panel } from '@/components/ui/panel';
import { paths } from '@/lib/paths';
import { isApiError } from '@/lib/query/fetcher';
import { useReadOnly } from '@/lib/query/health';
import { queueFingerprint } from '@/lib/query/fingerprints';
import { queueQuery } from '@/lib/query/queues';
import { usePollInterval } from '@/lib/query/use-poll-interval';
import { parseQueueTab, parseQueueView } from '@/lib/url-state';
import { QueueHeader } from './queue-header';
import { QueueTabs } from './queue-tabs';

/**
 * One queue: its figures, a tab per state with that state's tasks, and its unique locks.
 * State lives in the URL. Duplicates is a page of its own (its tab navigates there).
 */
export function QueueView({ qname }: { qname: string }) {
  const router = useRouter();
  const [view, setView, href] = useSearchState(parseQueueView);
  const [tab, setTab] = useSearchState(parseQueueTab);
  const readOnly = useReadOnly();
  const poll = usePollInterval({ fingerprint: queueFingerprint });
  const { data: stats, error } = useQuery({ ...queueQuery(qname), ...poll });
  if (!stats && isApiError(error) && error.status === 404) {
    return (
      <Panel>
        <ErrorState error={error} title={`Queue “${qname}” not found`} />
        <p className="pb-4 text-center text-xs">
          <Link href={paths.overview()} className="text-accent hover:underline">
            Back to all queues
          </Link>
        </p>
      </Panel>
    );
  }
  return (
    <>
      <QueueHeader qname={qname} stats={stats} readOnly={readOnly} />
      <Panel flush>
        <QueueTabs
          qname={qname}
          stats={stats}
          active={tab.tab === 'locks' ? 'locks' : view.state}
          stateHref={(state) => href({ state, page: null, group: null, tab: null, key: null, finding: null })}
          locksHref={paths.queueLocks(qname)}
          onSelect={(t) => {
            if (t === 'duplicates') router.push(paths.duplicates(qname));
            else if (t === 'locks') setView({ tab: 'locks', state: null, page: null, group: null });
            else setView({ state: t, page: null, group: null, tab: null, key: null, finding: null });
          }}
        >
          {tab.tab === 'tasks' && view.state === 'aggregating' && (
            <div className="py-1.5 pr-1">
              <GroupFilter qname={qname} group={view.group} onChange={(group) => setView({ group, page: null })} />
            </div>
          )}
        </QueueTabs>
        {tab.tab === 'locks' ? (
          <QueueLocks qname={qname} view={tab} readOnly={readOnly} onView={(patch) => setTab(patch, 'replace')} />
        ) : (
          <TaskTable qname={qname} view={view} readOnly={readOnly} onPage={(p) => setView(p)} />
        )}
      </Panel>
    </>
  );
}
