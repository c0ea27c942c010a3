/**
 * The one place where the codes of move-tasks.lua / move-all.lua become errors, with asynq's
 * own texts for the cases asynq has: its Inspector's (inspector.go RunTask, ArchiveTask,
 * DeleteTask) for a missing task, rdb's (inspect.go) for a state that refuses the action.
 */
import { AsynqError, actionTaskNotFound, failedPrecondition } from '../errors';

export type MoveAction = 'run' | 'archive' | 'delete';

export function moveError(op: string, action: MoveAction, code: number, qname: string, id: string, state: string): AsynqError {
  switch (code) {
    case 0:
      return actionTaskNotFound(op, qname, id);
    case -1:
      return failedPrecondition(
        op,
        action === 'run'
          ? 'task is already running'
          : `cannot ${action} task in active state. use CancelProcessing instead.`,
        { id, state: 'active' },
      );
    case -2:
      return failedPrecondition(op, 'task is already in pending state', { id, state: 'pending' });
    case -3:
      return failedPrecondition(op, `task is already archived: id=${id}, queue=${qname}`, { id, state: 'archived' });
    case -4:
      return failedPrecondition(op, `task is no longer in ${state} state`, { id });
    case -5:
      return failedPrecondition(op, `task ${id} is not in the set its state names; nothing was changed`, { id });
    default:
      return new AsynqError('INTERNAL', 'internal', `move script returned unknown code ${code}`, op);
  }
}

/** Which states each action may take tasks from (asynq's inspector allows the same). */
export const ACTION_STATES: Record<MoveAction, readonly string[]> = {
  run: ['scheduled', 'retry', 'archived', 'completed', 'aggregating'],
  archive: ['pending', 'scheduled', 'retry', 'completed', 'aggregating'],
  delete: ['pending', 'scheduled', 'retry', 'archived', 'completed', 'aggregating'],
};
