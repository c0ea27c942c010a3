import 'server-only';
import type { RedisInfoDto, SchedulerEventsDto, SchedulerListDto, ServerListDto, HealthDto } from '@/lib/contract/servers';
import { iso, toSchedulerListDto, toServerListDto } from '../dto';
import { env } from '../env';
import { getInspector } from '../redis';
import { shared } from '../snapshot-cache';

const VERSION = process.env.npm_package_version ?? '0.1.0';

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

/** Liveness plus the Redis version: one round trip (INFO server). */
export function getHealth(): Promise<HealthDto> {
  return shared('health', readHealth);
}

async function readHealth(): Promise<HealthDto> {
  const text = await getInspector().redis.info('server');
  const version = /redis_version:(\S+)/.exec(text)?.[1] ?? 'unknown';
  return { redis: 'ok', redisVersion: version, version: VERSION, readOnly: env().ASYNQLENS_READ_ONLY };
}
