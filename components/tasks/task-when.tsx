import { RelativeTime } from '@/components/common/relative-time';
import type { TaskDto, TaskStateDto } from '@/lib/contract/tasks';

/** The one time that matters in each state, and the column header that names it. */
export const WHEN_HEADER: Record<TaskStateDto, string> = {
  pending: 'Runs',
  active: 'Deadline',
  scheduled: 'Runs',
  retry: 'Next retry',
  archived: 'Last failed',
  completed: 'Completed',
  aggregating: 'Next run',
};

export function TaskWhen({ task, state }: { task: TaskDto; state: TaskStateDto }) {
  if (state === 'pending') return <span className="text-subtle">ready</span>;
  const iso =
    state === 'archived' ? task.lastFailedAt : state === 'completed' ? task.completedAt : state === 'active' ? task.deadline : task.nextProcessAt;
  return <RelativeTime iso={iso} />;
}
