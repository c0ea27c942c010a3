/**
 * Aggregating tasks of every group of a queue, as one list ordered by group name and then by
 * the time each task joined its group. asynq's inspector only lists one group at a time.
 */
import type { RedisClient } from '../redis-client';
import { pageRange, type PageParams } from '../pagination';
import type { TaskPage } from '../types';
import { listGroups } from './groups';
import { listRange } from './task-range';

/**
 * One page across all groups. Round trips: one for the group sizes, then one per group the
 * page overlaps (at most `size` of them).
 */
export async function listAllAggregating(
  redis: RedisClient,
  qname: string,
  opts: PageParams,
  now: Date,
): Promise<TaskPage> {
  const groups = (await listGroups(redis, qname)).sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
  const total = groups.reduce((n, g) => n + g.size, 0);
  const [start, stop] = pageRange(opts);
  const tasks: TaskPage['tasks'] = [];
  let offset = 0;
  for (const g of groups) {
    const from = Math.max(start - offset, 0);
    const to = Math.min(stop - offset, g.size - 1);
    if (from <= to) tasks.push(...(await listRange(redis, qname, 'aggregating', g.group, [from, to], now)).tasks);
    offset += g.size;
    if (offset > stop) break;
  }
  return { tasks, total };
}
