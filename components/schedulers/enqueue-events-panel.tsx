'use client';

import { useQuery } from '@tanstack/react-query';
import { Link } from '@/components/ui/link';
import { RelativeTime } from '@/components/common/relative-time';
import { QueryResult } from '@/components/common/query-result';
import { EmptyState } from '@/components/common/states';
import { Button } from '@/components/ui/button';
import { Panel } from '@/components/ui/panel';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import type { SchedulerListDto } from '@/lib/contract/servers';
import { paths } from '@/lib/paths';
import { schedulerEventsQuery } from '@/lib/query/schedulers';
import { usePollInterval } from '@/lib/query/use-poll-interval';
import { formatTimestamp } from '@/lib/utils';
import { entryQueue } from './entry-queue';
import { SafeText } from '@/components/ui/safe-text';

const SIZE = 20;

type Entry = SchedulerListDto['entries'][number];

/** What one entry enqueued, newest first (asynq keeps the last 1000). */
export function EnqueueEventsPanel({ entry, page, onPage }: { entry: Entry; page: number; onPage: (p: number) => void }) {
  const poll = usePollInterval();
  const query = useQuery({ ...schedulerEventsQuery(entry.id, page, SIZE), ...poll });
  const { data } = query;
  const queue = entryQueue(entry.options);
  const pages = data ? Math.max(1, Math.ceil(data.total / SIZE)) : 1;
  return (
    <Panel
      flush
      title={
        <span>
          Enqueue history · <span className="font-mono"><SafeText text={entry.spec} /></span> <SafeText text={entry.taskType} />
        </span>
      }
      actions={
        data && data.total > SIZE ? (
          <>
            <span className="text-xs text-muted">
              page {page} of {pages}
            </span>
            <Button size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>‹</Button>
            <Button size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>›</Button>
          </>
        ) : undefined
      }
    >
      <QueryResult
        query={query}
        rows={4}
        empty={data?.events.length === 0 && <EmptyState title="Nothing enqueued yet">This entry has not fired since its scheduler started keeping history.</EmptyState>}
      >
        {({ events }) => (
          <Table aria-label="Enqueue events">
            <THead>
              <tr>
                <TH>Task</TH>
                <TH>Enqueued</TH>
                <TH />
              </tr>
            </THead>
            <TBody>
              {events.map((ev) => (
                <TR key={`${ev.taskId}-${ev.enqueuedAt}`}>
                  <TD className="font-mono text-xs">
                    <Link href={paths.task(queue, ev.taskId)} className="hover:underline">
                      <SafeText text={ev.taskId} />

                    </Link>
                  </TD>
                  <TD className="text-muted">{formatTimestamp(ev.enqueuedAt)}</TD>
                  <TD className="text-right text-muted">
                    <RelativeTime iso={ev.enqueuedAt} />
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </QueryResult>
    </Panel>
  );
}
