'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from '@/components/ui/link';
import { CopyButton } from '@/components/common/copy-button';
import { PageHeader } from '@/components/common/page-header';
import { ErrorState } from '@/components/common/states';
import { TaskNotFoundCallout } from '@/components/failures/task-not-found-callout';
import { TaskRoutingPanel } from './routing-panel';
import { PayloadView, toContent } from '@/components/payload/payload-view';
import { TaskPayloadPanel } from '@/components/payload/task-payload-panel';
import { StateBadge } from '@/components/tasks/state-badge';
import { Icon } from '@/components/ui/icons';
import { Panel } from '@/components/ui/panel';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/lib/paths';
import { isApiError } from '@/lib/query/fetcher';
import { useReadOnly } from '@/lib/query/health';
import { isTerminal, taskQuery } from '@/lib/query/tasks';
import { usePollInterval } from '@/lib/query/use-poll-interval';
import { HeadersPanel } from './headers-panel';
import { TaskActionsBar } from './task-actions-bar';
import { TaskFields } from './task-fields';
import { TaskReuseActions } from './task-reuse-actions';
import { UniqueLockPanel } from './unique-lock-panel';
import { SafeText } from '@/components/ui/safe-text';

/** Everything about one task. Polling stops once it is completed or archived. */
export function TaskView({ qname, taskId }: { qname: string; taskId: string }) {
  const readOnly = useReadOnly();
  const poll = usePollInterval({ stopWhen: isTerminal });
  const { data: task, error, isPending, refetch, dataUpdatedAt } = useQuery({ ...taskQuery(qname, taskId), ...poll });
  const back = (
    <Link href={paths.queue(qname)} className="inline-flex items-center gap-1 text-xs text-muted hover:text-fg">
      <Icon name="arrowLeft" size={12} /> <SafeText text={qname} />
    </Link>
  );
  if (isPending) return <>{back}<Skeleton className="h-8 w-72" /><Skeleton className="h-64 w-full" /></>;
  if (!task) {
    const gone = isApiError(error) && error.status === 404;
    return (
      <>
        {back}
        <Panel>
          <ErrorState error={error} title={gone ? 'Task not found' : 'Could not load the task'} onRetry={gone ? undefined : () => void refetch()} />
          {gone && <p className="pb-4 text-center text-xs text-muted">It may have been processed, deleted, or expired after its retention.</p>}
        </Panel>
      </>
    );
  }
  return (
    <>
      {back}
      <PageHeader
        title={<span data-testid="task-type"><SafeText text={task.type || task.id} /></span>}
        meta={
          <>
            <StateBadge state={task.state} />
            <code className="font-mono break-all" data-testid="task-id"><SafeText text={task.id} /></code>
            <CopyButton text={task.id} label="Copy ID" />
          </>
        }
        actions={
          !readOnly && (
            <>
              <TaskReuseActions task={task} />
              <TaskActionsBar task={task} />
            </>
          )
        }
      />
      <TaskNotFoundCallout task={task} />
      {task.problem && (
        <div role="alert" className="rounded-lg border border-danger/30 bg-danger-soft px-3 py-2 text-[13px] text-danger">
          This task&apos;s record cannot be read: <SafeText text={task.problem} />

        </div>
      )}
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_400px]">
        <div className="flex min-w-0 flex-col gap-4">
          <TaskPayloadPanel task={task} />
          {task.result !== null && task.resultEncoding && <ResultPanel result={task.result} encoding={task.resultEncoding} />}
        </div>
        <div className="flex min-w-0 flex-col gap-4">
          <TaskFields task={task} />
          <TaskRoutingPanel task={task} />
          <UniqueLockPanel task={task} fetchedAt={dataUpdatedAt} />
          <HeadersPanel headers={task.headers} />
        </div>
      </div>
    </>
  );
}

function ResultPanel({ result, encoding }: { result: string; encoding: 'utf8' | 'base64' }) {
  const content = useMemo(() => toContent(result, encoding), [result, encoding]);
  return (
    <Panel flush title="Result">
      <PayloadView content={content} />
    </Panel>
  );
}
