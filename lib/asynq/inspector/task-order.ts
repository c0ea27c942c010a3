/**
 * The orders a task page can be read in without a scan. Redis keeps each state in one
 * structure with one order: pending and active lists by position (the oldest at the tail),
 * scheduled and retry by next run time (the zset score), archived by archive time, completed by
 * expiry (completed_at + retention), a group by the time a task joined it. A page in that order
 * or its exact reverse is one ranged read; any other order (type, payload, retries ...) needs
 * every task of the state read and sorted, which the 5 ms per-call rule forbids here: that is
 * search's job (docs/api.md).
 */
import { invalidArgument } from '../errors';
import type { TaskState } from '../states';

/** The one sort key each state's structure serves. */
export const TASK_SORT_KEYS = {
  pending: 'position',
  active: 'position',
  scheduled: 'next_process_at',
  retry: 'next_process_at',
  archived: 'archived_at',
  completed: 'expires_at',
  aggregating: 'added_at',
} as const satisfies Record<TaskState, string>;

export type TaskSortKey = (typeof TASK_SORT_KEYS)[TaskState];
export type SortOrder = 'asc' | 'desc';

/**
 * Checks that `sort` (when given) is the key `state`'s structure is ordered by. Throws
 * invalid_argument naming `sort` otherwise, with the rule: any other order needs a scan.
 */
export function checkTaskSort(op: string, state: TaskState, sort: string | undefined): void {
  const key = TASK_SORT_KEYS[state];
  if (sort === undefined || sort === key) return;
  throw invalidArgument(
    op,
    'sort',
    `sort=${sort} needs a scan of every ${state} task: Redis keeps ${state} tasks ordered only by ${key} (order=asc|desc), so sort by ${key} or use search`,
  );
}
