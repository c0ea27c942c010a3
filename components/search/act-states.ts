/**
 * Which states each search action takes tasks from: the server's rule (it answers
 * invalid_argument when none of the chosen states qualifies). Kept here so the buttons can say
 * so before asking; the server stays the authority.
 */
import type { BulkAction } from '@/lib/contract/task-actions';
import type { TaskStateDto } from '@/lib/contract/tasks';
import type { QueryPairs } from '@/lib/paths';
import { TASK_STATES } from '@/lib/url-state';

export const ACT_STATES: Record<BulkAction, readonly TaskStateDto[]> = {
  run: ['scheduled', 'retry', 'archived', 'completed', 'aggregating'],
  archive: ['pending', 'scheduled', 'retry', 'completed', 'aggregating'],
  delete: ['pending', 'scheduled', 'retry', 'archived', 'completed', 'aggregating'],
};

/** The states of the filter's chips, or every state when it names none. */
export function filterStates(filter: QueryPairs): TaskStateDto[] {
  const chosen = filter.filter(([k]) => k === 'state').map(([, v]) => v);
  return chosen.length > 0 ? TASK_STATES.filter((s) => chosen.includes(s)) : [...TASK_STATES];
}

/** The chosen states `action` would take tasks from. */
export const statesFor = (action: BulkAction, filter: QueryPairs): TaskStateDto[] =>
  filterStates(filter).filter((s) => ACT_STATES[action].includes(s));
