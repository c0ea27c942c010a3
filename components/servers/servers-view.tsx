'use client';

import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@/components/common/page-header';
import { EmptyState, ErrorState } from '@/components/common/states';
import { useSearchState } from '@/components/common/use-search-state';
import { Panel } from '@/components/ui/panel';
import { SkeletonRows } from '@/components/ui/skeleton';
import { serverListQuery } from '@/lib/query/servers';
import { usePollInterval } from '@/lib/query/use-poll-interval';
import { parseServersView } from '@/lib/url-state';
import { ServersTable } from './servers-table';

export function ServersView() {
  const [view, setView] = useSearchState(parseServersView);
  const poll = usePollInterval();
  const { data, error, isPending, refetch } = useQuery({ ...serverListQuery(), ...poll });
  const servers = data?.servers ?? [];
  const busy = servers.reduce((n, s) => n + s.workers.length, 0);
  const capacity = servers.reduce((n, s) => n + s.concurrency, 0);
  return (
    <>
      <PageHeader title="Servers" meta={data && <span>{servers.length} running · {busy} of {capacity} workers busy</span>} />
      <Panel flush>
        {isPending ? (
          <SkeletonRows rows={3} />
        ) : !data ? (
          <ErrorState error={error} onRetry={() => void refetch()} title="Could not load the servers" />
        ) : servers.length === 0 ? (
          <EmptyState title="No servers running">
            Asynq servers announce themselves with a heartbeat every 5 seconds. None has been seen recently on this Redis.
          </EmptyState>
        ) : (
          <ServersTable servers={servers} open={view.open} onToggle={(id) => setView({ open: view.open === id ? null : id }, 'replace')} />
        )}
      </Panel>
    </>
  );
}
