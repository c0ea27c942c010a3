'use client';

import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@/components/common/page-header';
import { RelativeTime } from '@/components/common/relative-time';
import { EmptyState, ErrorState } from '@/components/common/states';
import { useSearchState } from '@/components/common/use-search-state';
import { plural } from '@/components/tasks/task-actions';
import { Panel } from '@/components/ui/panel';
import { SkeletonRows } from '@/components/ui/skeleton';
import type { FailuresDto } from '@/lib/contract/triage';
import { useReadOnly } from '@/lib/query/health';
import { failuresFingerprint, failuresQuery, handlerNotFoundQuery, notFoundFingerprint, useScanPollInterval } from '@/lib/query/triage';
import { parseFailuresView } from '@/lib/url-state';
import { formatNumber } from '@/lib/utils';
import { ErrorGroups } from './error-groups';
import { NotFoundSection } from './not-found-section';
import { QueueFilter } from './queue-filter';
import { RerunDialog } from './rerun-dialog';
import { ScanStatus } from './scan-status';
import { useRerunFlow } from './use-rerun-flow';
import { SafeText } from '@/components/ui/safe-text';

function Meta({ data }: { data: FailuresDto }) {
  const failed = data.groups.reduce((n, g) => n + g.count, 0);
  return (
    <>
      <span>
        {plural(failed, 'failed task')} in {plural(data.totalGroups, 'group')}
        {data.complete ? '' : ' so far'}
      </span>
      <span>·</span>
      <span>
        {formatNumber(data.scanned)} tasks read{data.finishedAt && <>, <RelativeTime iso={data.finishedAt} /></>}
      </span>
      {data.skipped > 0 && <span className="text-warning">· {plural(data.skipped, 'unreadable task')} skipped</span>}
    </>
  );
}

/**
 * Every retry and archived task, grouped by error signature: first the types no worker had a
 * handler for (what it means, what to do, the re-run), then every other error.
 */
export function FailuresView() {
  const [view, setView] = useSearchState(parseFailuresView);
  const readOnly = useReadOnly();
  const queue = view.queue || null;
  const [poll, track] = useScanPollInterval(failuresFingerprint);
  const failures = useQuery({ ...failuresQuery(queue), ...poll });
  track(failures.data);
  const [nfPoll, nfTrack] = useScanPollInterval(notFoundFingerprint);
  const notFound = useQuery({ ...handlerNotFoundQuery(queue), ...nfPoll });
  nfTrack(notFound.data);
  const rerun = useRerunFlow();
  const data = failures.data;
  const errors = data?.groups.filter((g) => g.kind === 'error') ?? [];
  return (
    <>
      <PageHeader
        title="Failures"
        meta={data && <Meta data={data} />}
        actions={<QueueFilter value={view.queue} onChange={(q) => setView({ queue: q || null, type: null })} />}
      />
      {data && !data.complete && (
        <Panel flush>
          <ScanStatus label="Failure scan" scanned={data.scanned} total={data.total} what="retry and archived tasks" />
        </Panel>
      )}
      {!data ? (
        failures.isError ? (
          <Panel flush>
            <ErrorState error={failures.error} onRetry={() => void failures.refetch()} title="Could not read the failures" />
          </Panel>
        ) : (
          <Panel flush>
            <SkeletonRows rows={4} />
          </Panel>
        )
      ) : data.complete && data.groups.length === 0 ? (
        <Panel flush>
          <EmptyState title="No failed tasks">
            Nothing is in retry or archived{queue ? <> in <SafeText text={queue} /></> : ''}:
 every task either succeeded or has not run yet.
          </EmptyState>
        </Panel>
      ) : (
        <>
          <NotFoundSection failures={data} notFound={notFound.data} queue={queue} focus={view.type} readOnly={readOnly} onRerun={rerun.begin} />
          <ErrorGroups data={data} groups={errors} />
        </>
      )}
      <RerunDialog flow={rerun.flow} onConfirm={rerun.confirm} onStop={rerun.stop} onClose={rerun.close} />
    </>
  );
}
