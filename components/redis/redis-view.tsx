'use client';

import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@/components/common/page-header';
import { EmptyState, ErrorState } from '@/components/common/states';
import { useSearchState } from '@/components/common/use-search-state';
import { Panel } from '@/components/ui/panel';
import { SkeletonRows } from '@/components/ui/skeleton';
import { redisInfoQuery } from '@/lib/query/redis';
import { usePollInterval } from '@/lib/query/use-poll-interval';
import { parseRedisView } from '@/lib/url-state';
import { RedisHighlights } from './redis-highlights';

/** Every INFO section, filterable by field name or value (the filter lives in the URL). */
export function RedisView() {
  const [view, setView] = useSearchState(parseRedisView);
  const poll = usePollInterval();
  const { data, error, isPending, refetch } = useQuery({ ...redisInfoQuery(), ...poll });
  const q = view.filter.trim().toLowerCase();
  const sections = Object.entries(data?.info ?? {})
    .map(([name, fields]) => [name, Object.entries(fields).filter(([k, v]) => !q || k.toLowerCase().includes(q) || v.toLowerCase().includes(q))] as const)
    .filter(([, fields]) => fields.length > 0);
  return (
    <>
      <PageHeader
        title="Redis"
        actions={
          <input
            type="search"
            placeholder="Filter fields…"
            aria-label="Filter INFO fields"
            defaultValue={view.filter}
            onChange={(e) => setView({ q: e.target.value }, 'replace')}
            className="h-8 w-56 rounded-md border border-line-strong bg-panel px-2 text-[13px]"
          />
        }
      />
      {isPending ? (
        <Panel flush><SkeletonRows /></Panel>
      ) : !data ? (
        <Panel flush><ErrorState error={error} onRetry={() => void refetch()} title="Could not read Redis INFO" /></Panel>
      ) : (
        <>
          <RedisHighlights info={data.info} />
          {sections.length === 0 && <Panel flush><EmptyState title="No field matches the filter" /></Panel>}
          <div className="columns-1 gap-4 lg:columns-2 2xl:columns-3">
            {sections.map(([name, fields]) => (
              <Panel key={name} title={name} flush className="mb-4 break-inside-avoid">
                <dl className="divide-y divide-line font-mono text-xs">
                  {fields.map(([k, v]) => (
                    <div key={k} className="flex gap-3 px-3 py-1">
                      <dt className="w-1/2 shrink-0 break-all text-muted">{k}</dt>
                      <dd className="min-w-0 break-all">{v}</dd>
                    </div>
                  ))}
                </dl>
              </Panel>
            ))}
          </div>
        </>
      )}
    </>
  );
}
