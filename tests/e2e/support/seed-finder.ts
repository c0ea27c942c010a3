/**
 * Data for the search and enqueue specs (issues 10 and 8), in queues of their own so the
 * other specs' counts never move: orders in retry, archived and pending with headers and
 * errors to filter on, and a scheduled task whose payload the enqueue spec edits.
 */
import type { Redis } from 'ioredis';
import { encodeTaskMessage } from '../../../lib/asynq/codec';
import * as k from '../../../lib/asynq/keys';
import { json, newTaskMessage } from '../../../lib/asynq/testutil/factories';
import { seedPending, seedZset } from '../../../lib/asynq/testutil/seed';

export const SEARCH_QUEUE = 'e2e-search';
export const ENQUEUE_QUEUE = 'e2e-enqueue';
export const HAYSTACK_QUEUE = 'e2e-haystack';
/** Every order's payload contains it ({"orderId":77310…}); nothing outside SEARCH_QUEUE does. */
export const ORDER_MARK = '7731';

export interface FinderSeed {
  /** order:sync tasks in retry; the even ones have header tenant=acme; the first two user_id 42. */
  retryIds: string[];
  archivedIds: string[];
  pendingIds: string[];
  /** A scheduled task in ENQUEUE_QUEUE whose payload may be edited. */
  scheduledId: string;
}

export async function seedFinder(redis: Redis): Promise<FinderSeed> {
  const now = Math.floor(Date.now() / 1000);
  const retryIds: string[] = [];
  for (let i = 0; i < 6; i++) {
    const m = newTaskMessage({
      type: 'order:sync', queue: SEARCH_QUEUE, payload: json({ orderId: Number(`${ORDER_MARK}${i}`), region: i < 3 ? 'eu' : 'us', user_id: i < 2 ? 42 : 7 }),
      headers: { tenant: i % 2 === 0 ? 'acme' : 'globex' }, retried: i + 1, errorMsg: i < 4 ? 'upstream timeout after 30s' : 'HTTP 500', lastFailedAt: now - 60 * i,
    });
    retryIds.push(m.id);
    await seedZset(redis, 'retry', m, now + 3600 + i);
  }
  const archivedIds: string[] = [];
  for (let i = 6; i < 9; i++) {
    const m = newTaskMessage({ type: 'order:sync', queue: SEARCH_QUEUE, payload: json({ orderId: Number(`${ORDER_MARK}${i}`) }), retried: 25, errorMsg: 'gave up: timeout', lastFailedAt: now - 7200 });
    archivedIds.push(m.id);
    await seedZset(redis, 'archived', m, now - 7200);
  }
  const pendingIds: string[] = [];
  for (let i = 0; i < 2; i++) {
    const m = newTaskMessage({ type: 'order:refund', queue: SEARCH_QUEUE, payload: json({ orderId: Number(`${ORDER_MARK}${i}`) }) });
    pendingIds.push(m.id);
    await seedPending(redis, m);
  }
  const scheduled = newTaskMessage({ type: 'report:monthly', queue: ENQUEUE_QUEUE, payload: json({ month: '2026-11' }) });
  await seedZset(redis, 'scheduled', scheduled, now + 86_400);
  return { retryIds, archivedIds, pendingIds, scheduledId: scheduled.id };
}

/** `n` pending tasks in HAYSTACK_QUEUE, pipelined 1,000 at a time: a search that takes a while. */
export async function seedHaystack(redis: Redis, n: number): Promise<void> {
  await redis.sadd(k.ALL_QUEUES, HAYSTACK_QUEUE);
  for (let start = 0; start < n; start += 1000) {
    const p = redis.pipeline();
    for (let i = start; i < Math.min(n, start + 1000); i++) {
      const m = newTaskMessage({ type: 'hay:bale', queue: HAYSTACK_QUEUE, payload: json({ bale: i }) });
      p.hset(k.taskKey(HAYSTACK_QUEUE, m.id), 'msg', Buffer.from(encodeTaskMessage(m)), 'state', 'pending', 'pending_since', String(Date.now() * 1e6));
      p.lpush(k.pendingKey(HAYSTACK_QUEUE), m.id);
    }
    await p.exec();
  }
}

/** Removes HAYSTACK_QUEUE and its tasks. */
export async function dropHaystack(redis: Redis): Promise<void> {
  const ids = await redis.lrange(k.pendingKey(HAYSTACK_QUEUE), 0, -1);
  for (let i = 0; i < ids.length; i += 1000) await redis.del(...ids.slice(i, i + 1000).map((id) => k.taskKey(HAYSTACK_QUEUE, id)));
  await redis.del(k.pendingKey(HAYSTACK_QUEUE));
  await redis.srem(k.ALL_QUEUES, HAYSTACK_QUEUE);
}
