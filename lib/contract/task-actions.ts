/**
 * What can be done to a task: the one list every union of actions comes from (the route
 * schemas, the client's mutations, the buttons, the server's services). Free of zod on purpose:
 * components import these values into the browser bundle; mutations.ts builds the schemas.
 *
 * A new action is added to TASK_ACTIONS; TypeScript then points at every record keyed by it
 * (labels, icons, allowed states, the state a task moves to).
 */
export const TASK_ACTIONS = ['run', 'archive', 'delete', 'cancel'] as const;
export type TaskAction = (typeof TASK_ACTIONS)[number];

/**
 * The actions that move tasks between states, so they can take many at once (a queue's bulk
 * bar, a search's matches). Cancel moves nothing: it signals the worker of one active task.
 */
export type BulkAction = Exclude<TaskAction, 'cancel'>;
export const isBulkAction = (a: TaskAction): a is BulkAction => a !== 'cancel';
export const BULK_ACTIONS: readonly BulkAction[] = TASK_ACTIONS.filter(isBulkAction);

/** The actions POSTed to a task's `/:action`; delete is the DELETE of the task itself. */
export type PostAction = Exclude<TaskAction, 'delete'>;
export const POST_ACTIONS: readonly PostAction[] = TASK_ACTIONS.filter((a): a is PostAction => a !== 'delete');

/** "action must be run, archive or delete": the schemas' error text for a list of actions. */
export function actionError(actions: readonly TaskAction[]): string {
  return `action must be ${actions.slice(0, -1).join(', ')} or ${actions.at(-1)}`;
}
