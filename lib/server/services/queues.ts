import 'server-only';
import {
  QUEUE_LIST_DEFAULT_SIZE,
  type GroupListDto,
  type HistoryDto,
  type QueueListDto,
  type QueueListQuery,
  type QueueSortKey,
  type QueueStatsDto,
} from '@/lib/contract/queues';
import { toQueueStatsDto } from '../dto/tasks';
import { getInspector } from '../redis/client';
import { shared } from '../cache/snapshot';
import { markQueuesRead } from '../telemetry/registry';

/**
 * Every queue's stats, one snapshot shared by every caller (API, overview, /metrics): SSCAN
 * and the stats script in calls of about 1 ms of Redis time, up to three in flight (two round
 * trips up to 40-65 queues; lib/asynq/inspector/queue-stats-chunks.ts).
 */
export async function listQueues(): Promise<{ queues: QueueStatsDto[] }> {
  return shared('queues', async () => {
    const queues = (await getInspector().queues()).map(toQueueStatsDto);
    markQueuesRead();
    return { queues };
  });
}

const SORT_VALUE: Record<Exclude<QueueSortKey, 'name'>, (q: QueueStatsDto) => number> = {
  size: (q) => q.size,
  pending: (q) => q.pending,
  active: (q) => q.active,
  scheduled: (q) => q.scheduled,
  retry: (q) => q.retry,
  archived: (q) => q.archived,
  completed: (q) => q.completed,
  aggregating: (q) => q.aggregating,
  processed: (q) => q.processed,
  failed: (q) => q.failed,
  latency: (q) => q.latencySeconds,
};

/** `queues` (sorted by name) in `sort` order, ties by name; a new array, the rows shared. */
function sortQueues(queues: readonly QueueStatsDto[], sort: QueueSortKey, order: 'asc' | 'desc'): QueueStatsDto[] {
  const sign = order === 'desc' ? -1 : 1;
  if (sort === 'name') return order === 'desc' ? [...queues].reverse() : [...queues];
  const value = SORT_VALUE[sort];
  // The input is in name order and Array.prototype.sort is stable: equal values stay by name.
  return [...queues].sort((a, b) => sign * (value(a) - value(b)));
}

/**
 * The queues whose name contains `search`, case-insensitive (all of them without it): the one
 * name filter of the queue list, for GET /api/queues and the live snapshot's table alike.
 */
export function queuesMatching(queues: readonly QueueStatsDto[], search: string | undefined): readonly QueueStatsDto[] {
  const needle = search?.toLowerCase();
  return needle ? queues.filter((x) => x.queue.toLowerCase().includes(needle)) : queues;
}

/**
 * `GET /api/queues`: every queue when no page is asked for and there are at most
 * QUEUE_LIST_DEFAULT_SIZE of them (the snapshot's own object, no copy); otherwise one page of
 * the queues matching `search`, in `sort` order, with `page`, `size` and `total`. At 25,000
 * queues the unpaged list was 8 MB of JSON per request; a page is what a screen shows.
 * Filtering and sorting run on the shared snapshot, never a Redis read of their own.
 */
export async function listQueuePage(q: QueueListQuery): Promise<QueueListDto> {
  const all = await listQueues();
  const asked = q.page !== undefined || q.size !== undefined || q.search !== undefined || q.sort !== undefined || q.order !== undefined;
  if (!asked && all.queues.length <= QUEUE_LIST_DEFAULT_SIZE) return all;
  let rows = queuesMatching(all.queues, q.search);
  if ((q.sort ?? 'name') !== 'name' || q.order === 'desc') rows = sortQueues(rows, q.sort ?? 'name', q.order ?? 'asc');
  const page = q.page ?? 1;
  const size = q.size ?? QUEUE_LIST_DEFAULT_SIZE;
  return { queues: rows.slice((page - 1) * size, page * size), page, size, total: rows.length };
}

export async function getQueue(qname: string): Promise<QueueStatsDto> {
  return shared(`queue:${qname}`, async () => toQueueStatsDto(await getInspector().queue(qname)));
}

export async function getHistory(qname: string, days: number): Promise<HistoryDto> {
  return shared(`history:${qname}:${days}`, async () => ({ days: await getInspector().history(qname, days) }));
}

export async function listGroups(qname: string): Promise<GroupListDto> {
  const groups = await getInspector().groups(qname);
  return { groups: groups.sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0)) };
}
