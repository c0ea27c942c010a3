/**
 * The read side of the queue core: one object over one Redis connection, so callers never
 * pass the connection or the clock around.
 */
import type { RedisClient } from '../redis-client';
import { systemClock, type Clock } from '../clock';
import type { PageParams } from '../pagination';
import type { TaskState } from '../states';
import { listGroups } from './groups';
import { assertQueueExists, getQueueHistory, getQueueStats, listQueueNames, listQueueStats } from './queues';
import { getRedisInfo } from './redis-info';
import { listSchedulerEntries, listSchedulerEvents } from './schedulers';
import { listServers } from './servers';
import { getTask, getTaskPayload, listTasks, type ListOptions } from './tasks';

export function createInspector(redis: RedisClient, { clock = systemClock }: { clock?: Clock } = {}) {
  const now = () => clock.now();
  return {
    redis,
    queueNames: () => listQueueNames(redis),
    queues: () => listQueueStats(redis, now()),
    queue: (qname: string) => getQueueStats(redis, qname, now()),
    history: (qname: string, days: number) => getQueueHistory(redis, qname, days, now()),
    groups: async (qname: string) => {
      await assertQueueExists(redis, 'listGroups', qname);
      return listGroups(redis, qname);
    },
    tasks: (qname: string, state: TaskState, opts: ListOptions) => listTasks(redis, qname, state, opts, now()),
    task: (qname: string, id: string) => getTask(redis, qname, id, now()),
    taskPayload: (qname: string, id: string) => getTaskPayload(redis, qname, id, now()),
    servers: () => listServers(redis, now()),
    schedulerEntries: () => listSchedulerEntries(redis, now()),
    schedulerEvents: (entryId: string, page: PageParams) => listSchedulerEvents(redis, entryId, page),
    redisInfo: () => getRedisInfo(redis),
  };
}

export type Inspector = ReturnType<typeof createInspector>;
