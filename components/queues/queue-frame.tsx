'use client';

import { useQuery } from '@tanstack/react-query';
import { useRouter, useSelectedLayoutSegment } from 'next/navigation';
import type { ReactNode } from 'react';
import { ErrorState } from '@/components/common/states';
import { useSearchState } from '@/components/common/use-search-state';
import { GroupFilter } from '@/components/tasks/group-filter';
import { Link } from '@/components/ui/link';
import { Panel } from '@/components/ui/panel';
import { paths } from '@/lib/paths';
import { isApiError } from '@/lib/query/fetcher';
import { queueFingerprint } from '@/lib/query/fingerprints';
import { useReadOnly } from '@/lib/query/health';
import { queueQuery } from '@/lib/query/queues';
import { usePollInterval } from '@/lib/query/use-poll-interval';
import { parseQueueTab, parseQueueView } from '@/lib/url-state';
import { QueueHeader } from './queue-header';
import { QueueTabs, type QueueTab } from './queue-tabs';

/**
 * What every tab of a queue shows around its content: the queue's figures and actions, then
 * the tabs. The state and Locks tabs live on the queue's own page and switch in place (the URL
 * changes without a server round trip); Duplicates is a page of its own, so a tab that crosses
 * between the two navigates.
 */
export function QueueFrame({ qname, children }: { qname: string; children: ReactNode }) {
  const router = useRouter();
  // null on the queue's own page, 'duplicates' below it.
  const onQueuePage = useSelectedLayoutSegment() === null;
  const [view, setView, href] = useSearchState(parseQueueView);
  const [tab] = useSearchState(parseQueueTab);
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
  const active: QueueTab = !onQueuePage ? 'duplicates' : tab.tab === 'locks' ? 'locks' : view.state;
  const select = (t: QueueTab) => {
    if (!onQueuePage) {
      if (t !== 'duplicates') router.push(t === 'locks' ? paths.queueLocks(qname) : paths.queue(qname, { state: t }));
    } else if (t === 'duplicates') router.push(paths.duplicates(qname));
    else if (t === 'locks') setView({ tab: 'locks', state: null, page: null, group: null });
    else setView({ state: t, page: null, group: null, tab: null, key: null, finding: null });
  };
  return (
    <>
      <QueueHeader qname={qname} stats={stats} readOnly={readOnly} />
      <Panel flush>
        <QueueTabs
          qname={qname}
          stats={stats}
          active={active}
          stateHref={(state) =>
            onQueuePage ? href({ state, page: null, group: null, tab: null, key: null, finding: null }) : paths.queue(qname, { state })
          }
          locksHref={paths.queueLocks(qname)}
          onSelect={select}
        >
          {active === 'aggregating' && (
            <div className="py-1.5 pr-1">
              <GroupFilter qname={qname} group={view.group} onChange={(group) => setView({ group, page: null })} />
            </div>
          )}
        </QueueTabs>
        {children}
      </Panel>
    </>
  );
}
