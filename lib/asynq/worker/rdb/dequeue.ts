/**
 * Taking the next task (asynq's Dequeue).
 */
import type { RedisClient } from '../../redis-client';
import { CodecError, decodeTaskMessage } from '../../codec';
import * as k from '../../keys';
import { asBytes } from '../../reply';
import { sendWritesNow } from '../../redis-write-coalescing';
import { runScript } from '../../scripts';
import { isCluster } from '../../topology';
import type { TaskMessage } from '../../types';
import { LEASE_SECONDS, unixSeconds } from './codes';

/** A task taken for processing. */
export interface Dequeued {
  msg: TaskMessage;
  /** now + 30 s: the lease the dequeue wrote (whole seconds in Redis, exact here). */
  leaseExpiresAt: Date;
}

/** A dequeued ID whose msg does not decode: it stays active until a recoverer sees it. */
export class UndecodableTaskError extends Error {
  override readonly name = 'UndecodableTaskError';
}

/**
 * Pops the oldest pending task of the first queue in `qnames` that is not paused and not
 * empty, moving it to active with a 30 s lease. One round trip per queue tried (one script
 * call each, O(1)); null when every queue is paused or empty.
 * Throws UndecodableTaskError when the msg bytes are corrupt.
 */
export async function dequeue(redis: RedisClient, qnames: readonly string[], now: Date): Promise<Dequeued | null> {
  const leaseExpiresAt = new Date(now.getTime() + LEASE_SECONDS * 1000);
  for (const q of qnames) {
    const sent = runScript(
      redis,
      'workerDequeue',
      [k.pendingKey(q), k.pausedKey(q), k.activeKey(q), k.leaseKey(q)],
      [unixSeconds(leaseExpiresAt), k.taskKeyPrefix(q)],
    );
    // The server waits on this reply for its next task: out now, not at the end of the tick.
    if (!isCluster(redis)) sendWritesNow(redis);
    const reply = await sent;
    const bytes = asBytes(reply);
    if (bytes === null) continue;
    try {
      return { msg: decodeTaskMessage(bytes), leaseExpiresAt };
    } catch (err) {
      if (err instanceof CodecError) throw new UndecodableTaskError(`queue ${q}: ${err.message}`);
      throw err;
    }
  }
  return null;
}
