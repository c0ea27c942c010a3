/**
 * What an enqueue would run into, before it is sent: the unique key it would use and who holds
 * that lock now, and whether its task ID is taken. Read-only; it cannot promise the outcome
 * (another client may enqueue in between), only explain it in advance.
 */
import { assertQueueSlot } from '../topology';
import type { RedisClient } from '../redis-client';
import * as k from '../keys';
import { execPipeline } from '../scripts';

export interface EnqueuePrecheck {
  /** The lock key `Unique` would take (null when the task is not unique). */
  uniqueKey: string | null;
  lock: { held: boolean; holderId: string | null; holderState: string | null; ttlSeconds: number | null } | null;
  taskId: { id: string; taken: boolean; state: string | null } | null;
}

/**
 * One round trip: GET + PTTL of the lock and the holder's state are read in one pipeline
 * with the task-ID check; the holder's state needs the holder's ID, so it is fetched by a
 * second round trip only when a lock is held.
 */
export async function precheckEnqueue(
  redis: RedisClient,
  input: { queue: string; type: string; payload: Uint8Array | null; unique: boolean; taskId?: string | undefined },
): Promise<EnqueuePrecheck> {
  assertQueueSlot(redis, 'precheckEnqueue', input.queue);
  const uniqueKey = input.unique ? k.uniqueKey(input.queue, input.type, input.payload) : null;
  const taskId = input.taskId;
  const replies = (
    await execPipeline(redis, (p) => {
      if (uniqueKey) p.get(uniqueKey).pttl(uniqueKey);
      if (taskId) p.hget(k.taskKey(input.queue, taskId), 'state');
    })
  ).map(([, v]) => v);
  let lock: EnqueuePrecheck['lock'] = null;
  if (uniqueKey) {
    const holderId = (replies[0] as string | null) ?? null;
    const pttl = replies[1] as number;
    const holderState = holderId ? await redis.hget(k.taskKey(input.queue, holderId), 'state') : null;
    lock = { held: holderId !== null, holderId, holderState, ttlSeconds: pttl === -2 ? null : pttl === -1 ? -1 : pttl / 1000 };
  }
  const idState = input.taskId ? ((replies[uniqueKey ? 2 : 0] as string | null) ?? null) : null;
  return {
    uniqueKey,
    lock,
    taskId: input.taskId ? { id: input.taskId, taken: idState !== null, state: idState } : null,
  };
}
