/**
 * Reads the unique locks that a task names only in its msg (asynq's grouped unique tasks
 * carry no `unique_key` hash field, so the listing script cannot see them).
 */
import type { RedisClient } from '../redis-client';
import { uniqueKeyPrefix } from '../keys';
import type { TaskInfo } from '../types';
import { toUniqueLock } from './task-row';
import { execPipeline } from '../scripts';

/**
 * Fills `uniqueLock` of the given tasks in place. One round trip (a GET and a PTTL per lock,
 * pipelined); none when `tasks` is empty. A key outside the queue's lock prefix is not read.
 */
export async function fillLocks(redis: RedisClient, qname: string, tasks: TaskInfo[]): Promise<void> {
  const prefix = uniqueKeyPrefix(qname);
  const todo = tasks.filter((t) => t.uniqueLock?.key.startsWith(prefix));
  if (todo.length === 0) return;
  const replies = await execPipeline(redis, (p) => {
    for (const t of todo) p.get(t.uniqueLock!.key).pttl(t.uniqueLock!.key);
  });
  todo.forEach((t, i) => {
    const [, holder] = replies[2 * i] ?? [null, null];
    const [, pttl] = replies[2 * i + 1] ?? [null, null];
    t.uniqueLock = toUniqueLock(t.id, t.uniqueLock!.key, holder, pttl);
  });
}
