/**
 * Scheduler entries (periodic tasks) and the history of what each one enqueued.
 */
import type { RedisClient } from '../redis-client';
import { CodecError, decodeSchedulerEnqueueEvent, decodeSchedulerEntry } from '../codec';
import * as k from '../keys';
import { pageRange, type PageParams } from '../pagination';
import type { SchedulerEnqueueEvent, SchedulerEntryInfo } from '../types';
import { execPipeline } from '../scripts';

/**
 * Entries of every live scheduler, sorted by spec then ID. Two round trips: the registry,
 * then every scheduler's entry list. Expired registry members are left alone (a read does
 * not write); undecodable entries are skipped, since schedulers rewrite them every beat.
 */
export async function listSchedulerEntries(redis: RedisClient, now: Date): Promise<SchedulerEntryInfo[]> {
  const keys = await redis.zrangebyscore(k.ALL_SCHEDULERS, Math.floor(now.getTime() / 1000), '+inf');
  if (keys.length === 0) return [];
  const replies = await execPipeline(redis, (p) => {
    for (const key of keys) p.lrangeBuffer(key, 0, -1);
  });
  const out: SchedulerEntryInfo[] = [];
  replies.forEach(([, list], i) => {
    const schedulerId = (keys[i] ?? '').replace(/^asynq:schedulers:\{(.*)\}$/, '$1');
    for (const bytes of (list as Buffer[] | null) ?? []) {
      try {
        out.push({ ...decodeSchedulerEntry(bytes), schedulerId });
      } catch (err) {
        if (!(err instanceof CodecError)) throw err;
      }
    }
  });
  return out.sort((a, b) => a.spec.localeCompare(b.spec) || a.id.localeCompare(b.id));
}

/**
 * One page of an entry's enqueue events, newest first (asynq keeps at most 1000).
 * One round trip (ZREVRANGE).
 */
export async function listSchedulerEvents(
  redis: RedisClient,
  entryId: string,
  page: PageParams,
): Promise<{ events: SchedulerEnqueueEvent[]; total: number }> {
  const [start, stop] = pageRange(page);
  const [[, members], [, total]] = (await execPipeline(redis, (p) =>
    p.zrevrangeBuffer(k.schedulerHistoryKey(entryId), start, stop).zcard(k.schedulerHistoryKey(entryId)),
  )) as [[Error | null, Buffer[]], [Error | null, number]];
  const events: SchedulerEnqueueEvent[] = [];
  for (const m of members) {
    try {
      events.push(decodeSchedulerEnqueueEvent(m));
    } catch (err) {
      if (!(err instanceof CodecError)) throw err;
    }
  }
  return { events, total };
}
