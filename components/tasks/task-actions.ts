/**
 * Which actions each state allows, as asynq's inspector enforces them (an active task can only
 * be cancelled; a completed one only deleted).
 */
import type { TaskStateDto } from '@/lib/contract/tasks';
import type { BulkAction, TaskAction } from '@/lib/query/task-mutations';

const ALLOWED: Record<TaskStateDto, TaskAction[]> = {
  pending: ['archive', 'delete'],
  active: ['cancel'],
  scheduled: ['run', 'archive', 'delete'],
  retry: ['run', 'archive', 'delete'],
  archived: ['run', 'delete'],
  completed: ['delete'],
  aggregating: ['run', 'archive', 'delete'],
};

export function allowedActions(state: string): TaskAction[] {
  return ALLOWED[state as TaskStateDto] ?? [];
}

export function allowedBulkActions(state: TaskStateDto): BulkAction[] {
  return ALLOWED[state].filter((a): a is BulkAction => a !== 'cancel');
}

export const ACTION_LABEL: Record<TaskAction, { verb: string; past: string }> = {
  run: { verb: 'Run', past: 'Queued to run' },
  archive: { verb: 'Archive', past: 'Archived' },
  delete: { verb: 'Delete', past: 'Deleted' },
  cancel: { verb: 'Cancel', past: 'Cancel requested for' },
};

export const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
