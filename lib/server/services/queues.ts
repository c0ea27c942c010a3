import 'server-only';
import type { GroupListDto, HistoryDto, QueueListDto, QueueStatsDto } from '@/lib/contract/queues';
import { toQueueStatsDto } from '../dto/tasks';
import { getInspector } from '../redis/client';
import { shared } from '../cache/snapshot';

/** Every queue's stats. Two Redis round trips whatever the number of queues. */
export async function listQueues(): Promise<QueueListDto> {
  return shared('queues', async () => ({ queues: (await getInspector().queues()).map(toQueueStatsDto) }));
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
