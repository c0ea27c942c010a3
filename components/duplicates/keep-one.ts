import type { DuplicateGroupDto } from '@/lib/contract/diagnostics';

export interface KeepOnePlan {
  /** The tasks to delete: every listed task of each group but its first (oldest). */
  ids: string[];
  groups: number;
  /** Tasks the groups count that the scan did not list (beyond its samples): they stay. */
  unlisted: number;
}

/**
 * What "keep one of each, delete the rest" sends. A near group contains its exact groups'
 * tasks too, so choosing both still keeps one task per near group: the union of the surpluses.
 */
export function keepOnePlan(groups: readonly DuplicateGroupDto[]): KeepOnePlan {
  const ids = new Set<string>();
  let unlisted = 0;
  for (const g of groups) {
    for (const id of g.taskIds.slice(1)) ids.add(id);
    unlisted += Math.max(0, g.count - g.taskIds.length);
  }
  return { ids: [...ids], groups: groups.length, unlisted };
}

/** The states the sampled tasks of a group are in, with counts: "2 pending, 1 retry". */
export function stateMix(g: DuplicateGroupDto): string {
  const counts = new Map<string, number>();
  for (const t of g.tasks) counts.set(t.state, (counts.get(t.state) ?? 0) + 1);
  return [...counts].map(([s, n]) => `${n} ${s}`).join(', ');
}
