'use client';

import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useCallback, useState } from 'react';
import { EmptyState, ErrorState } from '@/components/common/states';
import { SkeletonRows } from '@/components/ui/skeleton';
import { TH } from '@/components/ui/table';
import { paths } from '@/lib/paths';
import { taskListQuery } from '@/lib/query/tasks';
import type { TaskAction } from '@/lib/contract/task-actions';
import type { TaskDto } from '@/lib/contract/tasks';
import { useTaskAction } from '@/lib/query/task-mutations';
import { usePollInterval } from '@/lib/query/use-poll-interval';
import type { QueueViewState } from '@/lib/url-state';
import { BulkActionsBar } from './bulk-actions-bar';
import { BulkConfirm, type BulkRequest } from './bulk-confirm';
import { allowedActions, allowedBulkActions } from './task-actions';
import { canReschedule, RescheduleDialog } from './reschedule-dialog';
import { TaskRow } from './task-row';
import { TaskTablePagination } from './task-table-pagination';
import { WHEN_HEADER } from './task-when';
import { useSelection } from './use-selection';
import { useTableKeyboard } from './use-table-keyboard';
import { SafeText } from '@/components/ui/safe-text';

interface Props {
  qname: string;
  view: QueueViewState;
  readOnly: boolean;
  onPage: (patch: { page?: number; size?: number }) => void;
}

/** One page of a state's tasks: selection, bulk and row actions, keyboard control. */
export function TaskTable({ qname, view, readOnly, onPage }: Props) {
  const router = useRouter();
  const poll = usePollInterval();
  const { data, error, isPending, refetch, dataUpdatedAt } = useQuery({ ...taskListQuery(qname, view), ...poll });
  const tasks = data?.tasks ?? [];
  const viewKey = `${view.state}|${view.page}|${view.size}|${view.group ?? ''}`;
  const selection = useSelection(viewKey);
  const single = useTaskAction(qname);
  const [bulk, setBulk] = useState<BulkRequest | null>(null);
  const [rescheduling, setRescheduling] = useState<TaskDto | null>(null);
  const onOpen = useCallback((i: number) => tasks[i] && router.push(paths.task(qname, tasks[i].id)), [tasks, router, qname]);
  const onToggle = useCallback((i: number) => tasks[i] && selection.toggle(tasks[i].id), [tasks, selection]);
  const { cursor } = useTableKeyboard({ rowCount: tasks.length, onOpen, onToggle: readOnly ? () => {} : onToggle, resetKey: viewKey });
  const runSingle = (taskId: string, action: TaskAction) => {
    if (action === 'delete') setBulk({ action, state: view.state, ids: [taskId], single: view });
    else single.mutate({ taskId, action, page: view });
  };

  if (isPending) return <SkeletonRows />;
  if (!data) return <ErrorState error={error} onRetry={() => void refetch()} title="Could not load the tasks" />;
  const completion = view.state === 'completed';
  const selectedOnPage = tasks.filter((t) => selection.ids.has(t.id)).length;
  const allOnPage = tasks.length > 0 && selectedOnPage === tasks.length;
  return (
    <>
      {!readOnly && (selectedOnPage > 0 || selection.allInState) && (
        <BulkActionsBar
          state={view.state}
          selectedCount={selectedOnPage}
          pageCount={tasks.length}
          total={data.total}
          allInState={selection.allInState}
          actions={allowedBulkActions(view.state)}
          pending={false}
          onSelectAll={selection.selectAllInState}
          onClear={selection.clear}
          onAction={(action) =>
            setBulk({ action, state: view.state, ids: selection.allInState ? undefined : tasks.filter((t) => selection.ids.has(t.id)).map((t) => t.id), group: view.group, total: data.total })
          }
        />
      )}
      {tasks.length === 0 ? (
        <EmptyState title={`No ${view.state} tasks`}>
          {view.page > 1 ? 'This page is past the end of the list.' : <SafeText text={`Nothing in ${view.state}${view.group ? ` for group ${view.group}` : ''} right now.`} />}

        </EmptyState>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-left text-[13px]" aria-label={`${view.state} tasks`}>
            <thead>
              <tr>
                {!readOnly && (
                  <TH className="w-8 pr-0">
                    <input
                      type="checkbox"
                      aria-label="Select every task on this page"
                      checked={allOnPage}
                      onChange={(e) => selection.setPage(tasks.map((t) => t.id), e.target.checked)}
                      className="accent-[var(--accent)]"
                    />
                  </TH>
                )}
                <TH>ID</TH>
                <TH>Type</TH>
                <TH>Payload</TH>
                {completion && <TH>Result</TH>}
                <TH className="text-right">Retried</TH>
                <TH>Last error</TH>
                <TH>{WHEN_HEADER[view.state]}</TH>
                {completion && <TH title="When asynq deletes the task: completed + retention">Kept until</TH>}
                <TH>Lock</TH>
                {!readOnly && <TH className="w-[8.5rem] px-1" aria-label="Actions" />}
              </tr>
            </thead>
            <tbody>
              {tasks.map((t, i) => (
                <TaskRow
                  key={t.id}
                  task={t}
                  state={view.state}
                  index={i}
                  active={i === cursor}
                  selected={selection.allInState || selection.ids.has(t.id)}
                  fetchedAt={dataUpdatedAt}
                  actions={readOnly ? null : allowedActions(t.state)}
                  onToggle={() => selection.toggle(t.id)}
                  onOpen={() => onOpen(i)}
                  onAction={(a) => runSingle(t.id, a)}
                  showCompletion={completion}
                  onReschedule={!readOnly && !t.problem && canReschedule(t.state) ? () => setRescheduling(t) : undefined}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <TaskTablePagination page={view.page} size={view.size} total={data.total} onChange={onPage} />
      {rescheduling && <RescheduleDialog task={rescheduling} onClose={() => setRescheduling(null)} />}
      <BulkConfirm qname={qname} request={bulk} onDone={() => { setBulk(null); selection.clear(); }} onCancel={() => setBulk(null)} />
    </>
  );
}
