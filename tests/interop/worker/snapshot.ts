/**
 * What the worker interop suite compares between the Go-processed and the TS-processed
 * database: per task its state, retried, last error, result and lock; per queue the size of
 * every structure and the counters. Timestamps are reduced to "set or not", since the two
 * servers run at slightly different moments.
 */
import type { Redis } from 'ioredis';
import { decodeTaskMessage } from '@asynqlens/asynq/codec';
import * as k from '@asynqlens/asynq/keys';

export interface TaskOutcome {
  state: string;
  retried: number | null;
  lastError: string | null;
  lastFailedAtSet: boolean;
  completedAtSet: boolean;
  result: string | null;
  headers: Record<string, string> | null;
  /** Value of the task's unique lock key; null when the key is gone or the task has none. */
  lock: string | null;
}

export async function taskOutcome(redis: Redis, qname: string, id: string, lockKey: string | null): Promise<TaskOutcome> {
  const h = await redis.hgetallBuffer(k.taskKey(qname, id));
  const lock = lockKey ? await redis.get(lockKey) : null;
  if (!h.msg) {
    return { state: 'deleted', retried: null, lastError: null, lastFailedAtSet: false, completedAtSet: false, result: null, headers: null, lock };
  }
  const m = decodeTaskMessage(h.msg);
  return {
    state: h.state?.toString() ?? '',
    retried: m.retried,
    lastError: m.errorMsg,
    lastFailedAtSet: m.lastFailedAt > 0,
    completedAtSet: m.completedAt > 0,
    result: h.result?.toString('base64') ?? null,
    headers: m.headers,
    lock,
  };
}

export async function queueShape(redis: Redis, qname: string): Promise<Record<string, number | string | null>> {
  const day = new Date();
  const r = (await redis
    .pipeline()
    .llen(k.pendingKey(qname))
    .llen(k.activeKey(qname))
    .zcard(k.scheduledKey(qname))
    .zcard(k.retryKey(qname))
    .zcard(k.archivedKey(qname))
    .zcard(k.completedKey(qname))
    .zcard(k.leaseKey(qname))
    .get(k.processedTotalKey(qname))
    .get(k.failedTotalKey(qname))
    .get(k.processedKey(qname, day))
    .get(k.failedKey(qname, day))
    .exec())!.map(([, v]) => v as number | string | null);
  const names = ['pending', 'active', 'scheduled', 'retry', 'archived', 'completed', 'lease', 'processedTotal', 'failedTotal', 'processedToday', 'failedToday'];
  return Object.fromEntries(names.map((n, i) => [n, r[i] ?? null]));
}
