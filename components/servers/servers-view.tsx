'use client';

import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@/components/common/page-header';
import { QueryResult } from '@/components/common/query-result';
import { EmptyState } from '@/components/common/states';
import { useSearchState } from '@/components/common/use-search-state';
import { Panel } from '@/components/ui/panel';
import { serverListQuery } from '@/lib/query/servers';
import { usePollInterval } from '@/lib/query/use-poll-interval';
import { parseServersView } from '@/lib/url-state';
import { ServersTable } from './servers-table';

export function ServersView() {
  const [view, setView] = useSearchState(parseServersView);
  const poll = usePollInterval();
  const query = useQuery({ ...serverListQuery(), ...poll });
  const { data } = query;
  const servers = data?.servers ?? [];
  const busy = servers.reduce((n, s) => n + s.workers.length, 0);
  const capacity = servers.reduce((n, s) => n + s.concurrency, 0);
  return (
    <>
      <PageHeader title="Servers" meta={data && <span>{servers.length} running · {busy} of {capacity} workers busy</span>} />
      <Panel flush>
        <QueryResult
          query={query}
          rows={3}
          errorTitle="Could not load the servers"
          empty={
            servers.length === 0 && (
              <EmptyState title="No servers running">
                Asynq servers announce themselves with a heartbeat every 5 seconds. None has been seen recently on this Redis.
              </EmptyState>
            )
          }
        >
          {() => <ServersTable servers={servers} open={view.open} onToggle={(id) => setView({ open: view.open === id ? null : id }, 'replace')} />}
        </QueryResult>
      </Panel>
    </>
  );
}
