'use client';

import { PolledList, usePolledList } from '@/components/common/polled-list';
import { useSearchState } from '@/components/common/use-search-state';
import { serverListQuery } from '@/lib/query/servers';
import { parseServersView } from '@/lib/url-state';
import { ServersTable } from './servers-table';

export function ServersView() {
  const [view, setView] = useSearchState(parseServersView);
  const query = usePolledList(serverListQuery());
  return (
    <PolledList
      title="Servers"
      query={query}
      meta={({ servers }) => {
        const busy = servers.reduce((n, s) => n + s.workers.length, 0);
        const capacity = servers.reduce((n, s) => n + s.concurrency, 0);
        return <span>{servers.length} running · {busy} of {capacity} workers busy</span>;
      }}
      errorTitle="Could not load the servers"
      empty={{
        when: ({ servers }) => servers.length === 0,
        title: 'No servers running',
        text: 'Asynq servers announce themselves with a heartbeat every 5 seconds. None has been seen recently on this Redis.',
      }}
    >
      {({ servers }) => <ServersTable servers={servers} open={view.open} onToggle={(id) => setView({ open: view.open === id ? null : id }, 'replace')} />}
    </PolledList>
  );
}
