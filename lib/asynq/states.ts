/**
 * The seven task states, spelled exactly as asynq writes them into the task hash's `state`
 * field. Any other string there is data asynq itself refuses to read.
 */
export const TASK_STATES = [
  'pending',
  'active',
  'scheduled',
  'retry',
  'archived',
  'completed',
  'aggregating',
] as const;

export type TaskState = (typeof TASK_STATES)[number];

/** True when `s` is one of asynq's seven state strings. */
export function isTaskState(s: string): s is TaskState {
  return (TASK_STATES as readonly string[]).includes(s);
}

/** A state's place in asynq's order (TASK_STATES), as search positions carry it. */
export const stateIndex = (s: TaskState): number => TASK_STATES.indexOf(s);

/** Whether a state's task IDs live in a list (pending, active) rather than a sorted set. */
export const isListState = (s: TaskState): boolean => s === 'pending' || s === 'active';

/** States whose task IDs live in a sorted set named after the state. */
export const ZSET_STATES = ['scheduled', 'retry', 'archived', 'completed'] as const;
export type ZsetState = (typeof ZSET_STATES)[number];
