'use client';

import { useQuery } from '@tanstack/react-query';
import { Link } from '@/components/ui/link';
import { ErrorState } from '@/components/common/states';
import { useSearchState } from '@/components/common/use-search-state';
import { GroupFilter } from '@/components/tasks/group-filter';
import { TaskStateTabs } from '@/components/tasks/task-state-tabs';
import { TaskTable } from '@/components/tasks/task-table';
import { Panel } from '@/components/ui/panel';
import { paths } from '@/lib/paths';
import { isApiError } from '@/lib/query/fetcher';
import { useReadOnly } from '@/lib/query/health';
import { queueFingerprint } from '@/lib/query/fingerprints';
import { queueQuery } from '@/lib/query/queues';
import { usePollInterval } from '@/lib/query/use-poll-interval';
import { parseQueueView } from '@/lib/url-state';
import { QueueHeader } from './queue-header';

/** One queue: its figures, a tab per state, and that state's tasks. State lives in the URL. */
export function QueueView({ qname }: { qname: string }) {
  const [view, setView, href] = useSearchState(parseQueueView);
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
        <div className="flex flex-wrap items-end justify-between gap-2 border-b border-line px-2">
          <TaskStateTabs
            stats={stats}
            active={view.state}
            href={(state) => href({ state, page: null, group: null })}
            onSelect={(state) => setView({ state, page: null, group: null })}
          />
          {view.state === 'aggregating' && (
            <div className="py-1.5 pr-1">
              <GroupFilter qname={qname} group={view.group} onChange={(group) => setView({ group, page: null })} />
            </div>
          )}
        </div>
        <TaskTable qname={qname} view={view} readOnly={readOnly} onPage={(p) => setView(p)} />
      </Panel>
    </>
  );
}
