import 'server-only';
import type { RedisInfoDto, SchedulerEventsDto, SchedulerListDto, ServerListDto } from '@/lib/contract/servers';
import { iso, toSchedulerListDto, toServerListDto } from '../dto/tasks';
import { getInspector } from '../redis/client';
import { shared } from '../cache/snapshot';

export async function listServers(): Promise<ServerListDto> {
  return shared('servers', async () => toServerListDto(await getInspector().servers()));
}

export async function listSchedulerEntries(): Promise<SchedulerListDto> {
  return shared('schedulers', async () => toSchedulerListDto(await getInspector().schedulerEntries()));
}

export async function listSchedulerEvents(entryId: string, page: number, size: number): Promise<SchedulerEventsDto> {
  const { events, total } = await getInspector().schedulerEvents(entryId, { page, size });
  return { events: events.map((e) => ({ taskId: e.taskId, enqueuedAt: iso(e.enqueuedAt) })), total };
}

export async function getRedisInfo(): Promise<RedisInfoDto> {
  return { info: await getInspector().redisInfo() };
}
