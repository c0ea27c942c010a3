'use client';

import { useQuery } from '@tanstack/react-query';
import { EmptyState, ErrorState } from '@/components/common/states';
import { useSearchState } from '@/components/common/use-search-state';
import { plural } from '@/components/tasks/task-actions';
import { Button } from '@/components/ui/button';
import { useReadOnly } from '@/lib/query/health';
import { duplicateScanQuery, isScanComplete, useScanControl } from '@/lib/query/duplicates';
import { usePollInterval } from '@/lib/query/use-poll-interval';
import { parseDuplicatesView } from '@/lib/url-state';
import { GroupsTable } from './groups-table';
import { KeepOneDialog } from './keep-one-dialog';
import { KeepOneOutcomeBanner } from './keep-one-outcome';
import { KindFilter } from './kind-filter';
import { ScanControls } from './scan-controls';
import { ScanProgress } from './scan-progress';
import { ScanSummary } from './scan-summary';
import { useKeepOne } from './use-keep-one';

/**
 * The duplicate scan of one queue: pick states, watch the server-side scan progress (read
 * every second until it completes), then open groups and keep one of each.
 */
export function DuplicateScan({ qname }: { qname: string }) {
  const readOnly = useReadOnly();
  const [view, setView] = useSearchState(parseDuplicatesView);
  const poll = usePollInterval({ stopWhen: isScanComplete, progressMs: 1000 });
  const q = useQuery({ ...duplicateScanQuery(qname, view.states), ...poll, enabled: view.scan });
  const control = useScanControl(qname, view.states);
  const keep = useKeepOne(qname, view.states);
  const report = view.scan ? q.data : undefined;
  const groups = report?.groups.filter((g) => view.kind === 'all' || g.kind === view.kind) ?? [];
  return (
    <>
      <ScanControls
        key={view.states.join(',')}
        states={view.states}
        scanning={view.scan && (q.isPending || (report !== undefined && !report.complete))}
        started={view.scan}
        busy={control.isPending}
        onScan={(states) => setView({ states: states.join(','), scan: 1 })}
        onCancel={() => control.mutate('stop', { onSuccess: () => setView({ scan: null }) })}
        onRescan={() => control.mutate('rescan')}
      />
      {keep.outcome && <KeepOneOutcomeBanner outcome={keep.outcome} onDismiss={keep.dismiss} />}
      {!view.scan ? (
        <EmptyState title="Find tasks enqueued more than once">
          The scan reads every task in the chosen states on the server, a batch at a time, and groups those with the same type and payload, or
          payloads that differ only in time stamps and IDs.
        </EmptyState>
      ) : !report ? (
        q.isError ? (
          <ErrorState error={q.error} onRetry={() => void q.refetch()} title="Could not scan for duplicates" />
        ) : (
          <ScanProgress scanned={0} total={null} />
        )
      ) : !report.complete ? (
        <>
          <ScanProgress scanned={report.scanned} total={report.total} />
          <p className="px-3 pb-3 text-xs text-muted">{plural(report.exactGroups + report.nearGroups, 'group')} so far.</p>
        </>
      ) : (
        <>
          <ScanSummary report={report} />
          {report.groups.length === 0 ? (
            <EmptyState title="No duplicates">No two {report.states.join(', ')} tasks in this queue share a type and payload.</EmptyState>
          ) : (
            <>
              <div className="flex flex-wrap items-center justify-between gap-2 border-y border-line px-3 py-2">
                <KindFilter groups={report.groups} active={view.kind} onChange={(kind) => setView({ kind: kind === 'all' ? null : kind }, 'replace')} />
                {!readOnly && groups.length > 0 && (
                  <Button variant="danger" size="sm" onClick={() => void keep.start(groups)}>
                    Keep one of each · {plural(groups.length, 'group')}
                  </Button>
                )}
              </div>
              <GroupsTable qname={qname} groups={groups} onKeepOne={readOnly ? null : (g) => void keep.start(g)} />
            </>
          )}
        </>
      )}
      <KeepOneDialog qname={qname} states={view.states} keep={keep} />
    </>
  );
}
