/**
 * Task actions: one task (optimistic) and many (not optimistic, with per-task results).
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { QueueStatsDto } from '@/lib/contract/queues';
import type { BulkResultDto } from '@/lib/contract/mutations';
import type { BulkAction, TaskAction } from '@/lib/contract/task-actions';
import type { TaskListDto, TaskStateDto } from '@/lib/contract/tasks';
import { apiPaths } from '@/lib/paths';
import { contracts } from './contracts';
import { apiMutate } from './fetcher';
import { refreshShell } from './poll-policy';
import { queryKeys, type TaskPageParams } from './keys';

/** Where a task goes after each action; cancel only signals the worker. */
const TARGET: Record<TaskAction, TaskStateDto | null> = { run: 'pending', archive: 'archived', delete: null, cancel: null };

/** Every read a task action can change: the queue's task lists and details, its counts, the shell's sidebar. */
export function invalidateQueue(qc: QueryClient, qname: string): Promise<unknown> {
  refreshShell();
  return Promise.all([
    qc.invalidateQueries({ queryKey: queryKeys.tasks.queue(qname) }),
    qc.invalidateQueries({ queryKey: queryKeys.queues.detail(qname) }),
    qc.invalidateQueries({ queryKey: queryKeys.queues.groups(qname) }),
  ]);
}

interface TaskActionVars {
  taskId: string;
  action: TaskAction;
  /** The list page the task was acted on from: its row disappears at once. */
  page?: TaskPageParams;
}

function moveCount(stats: QueueStatsDto, from: TaskStateDto, to: TaskStateDto | null): QueueStatsDto {
  const next = { ...stats, [from]: Math.max(0, stats[from] - 1) };
  if (to) next[to] = stats[to] + 1;
  else next.size = Math.max(0, stats.size - 1);
  return next;
}

/**
 * Runs, archives, deletes or cancels one task. Acted on from a list, it follows the
 * cancel → snapshot → set → rollback → settle sequence: the row leaves the page and the state
 * counts move at once, and both come back if the server says no.
 */
export function useTaskAction(qname: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ taskId, action }: TaskActionVars) =>
      action === 'delete'
        ? apiMutate('DELETE', apiPaths.task(qname, taskId))
        : apiMutate('POST', apiPaths.taskAction(qname, taskId, action)),
    onMutate: async ({ taskId, action, page }) => {
      if (!page || action === 'cancel') return undefined;
      const listKey = queryKeys.tasks.list(qname, page);
      const statsKey = queryKeys.queues.detail(qname);
      await Promise.all([qc.cancelQueries({ queryKey: listKey }), qc.cancelQueries({ queryKey: statsKey })]);
      const list = qc.getQueryData<TaskListDto>(listKey);
      const stats = qc.getQueryData<QueueStatsDto>(statsKey);
      if (list) {
        qc.setQueryData<TaskListDto>(listKey, { ...list, tasks: list.tasks.filter((t) => t.id !== taskId), total: Math.max(0, list.total - 1) });
      }
      if (stats) qc.setQueryData<QueueStatsDto>(statsKey, moveCount(stats, page.state, TARGET[action]));
      return { listKey, list, statsKey, stats };
    },
    onError: (_err, _vars, ctx) => {
      if (ctx?.list) qc.setQueryData(ctx.listKey, ctx.list);
      if (ctx?.stats) qc.setQueryData(ctx.statsKey, ctx.stats);
    },
    onSettled: () => invalidateQueue(qc, qname),
  });
}

/**
 * Gives a scheduled or retry task a new process time (ISO). Not optimistic: the row stays in
 * its state and its new time comes back with the answer.
 */
export function useReschedule(qname: string, taskId: string) {
  const qc = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: (processAt: string) => apiMutate('POST', apiPaths.taskReschedule(qname, taskId), { body: { processAt }, schema: contracts.task }),
    onSettled: () => invalidateQueue(qc, qname),
  });
}

interface BulkVars {
  action: BulkAction;
  state: TaskStateDto;
  /** Omitted: every task in `state` (of `group`, for aggregating). */
  ids?: string[];
  group?: string;
}

/** Runs, archives or deletes a selection, or every task in a state. Shows pending, then counts. */
export function useBulkAction(qname: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ action, state, ids, group }: BulkVars): Promise<BulkResultDto> => {
      const body = { action, state, ...(ids ? { ids } : {}), ...(group ? { group } : {}) };
      const res = await apiMutate('POST', apiPaths.bulk(qname), { body, schema: contracts.bulkResult });
      return res ?? { succeeded: 0, failed: [], trimmed: 0, stopped: false };
    },
    onSettled: () => invalidateQueue(qc, qname),
  });
}
