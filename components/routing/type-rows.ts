/**
 * The census (one row per queue and type) → one row per task type, which is what routing is
 * about: a ServeMux sees the type, not the queue.
 */
import type { TaskTypesDto } from '@/lib/contract/triage';
import type { TaskStateDto } from '@/lib/contract/tasks';
import { TASK_STATES } from '@/lib/url-state';

export interface TypeRow {
  taskType: string;
  counts: Record<TaskStateDto, number>;
  queues: string[];
}

/** Rows sorted by type (code point order, as the API sorts). */
export function byType(types: TaskTypesDto['types']): TypeRow[] {
  const rows = new Map<string, TypeRow>();
  for (const t of types) {
    let row = rows.get(t.taskType);
    if (!row) {
      row = { taskType: t.taskType, counts: Object.fromEntries(TASK_STATES.map((s) => [s, 0])) as Record<TaskStateDto, number>, queues: [] };
      rows.set(t.taskType, row);
    }
    for (const s of TASK_STATES) row.counts[s] += t.counts[s] ?? 0;
    row.queues.push(t.queue);
  }
  return [...rows.values()].sort((a, b) => (a.taskType < b.taskType ? -1 : a.taskType > b.taskType ? 1 : 0));
}
