/**
 * How the console shows each task action, and which ones each state offers. Records keyed by
 * the contract's action list, so a new action does not compile until it has its words and icon.
 */
import type { IconName } from '@/components/ui/icons';
import { isBulkAction, type BulkAction, type TaskAction } from '@/lib/contract/task-actions';
import type { TaskStateDto } from '@/lib/contract/tasks';

/**
 * Which actions each state allows, as asynq's inspector enforces them (an active task can only
 * be cancelled; a completed one only deleted).
 */
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
  return ALLOWED[state].filter(isBulkAction);
}

/** The button's verb, the toast's past tense, and what a confirmation says becomes of the tasks. */
export const ACTION_LABEL: Record<TaskAction, { verb: string; past: string; outcome: string }> = {
  run: { verb: 'Run', past: 'Queued to run', outcome: 'moved to pending to run now' },
  archive: { verb: 'Archive', past: 'Archived', outcome: 'archived' },
  delete: { verb: 'Delete', past: 'Deleted', outcome: 'deleted' },
  cancel: { verb: 'Cancel', past: 'Cancel requested for', outcome: 'cancelled' },
};

export const ACTION_ICON: Record<TaskAction, IconName> = { run: 'play', archive: 'archive', delete: 'trash', cancel: 'stop' };

export const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
