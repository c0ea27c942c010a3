/**
 * Seeds many small queues server-side for the scale and memory cases: seed-tasks.lua builds
 * each queue's tasks inside Redis, and the calls are pipelined a thousand at a time (each is a
 * few tasks, a few µs of Redis time), so 25,000 queues cost 75 round trips, not 75,000.
 */
import { readFile } from 'node:fs/promises';
import type { Redis } from 'ioredis';
import * as k from '../lib/asynq/keys';
import { messageParts, type SeedState } from './task-message';

const PIPELINE = 1_000;
/** The states each queue gets one task in: a list and two zsets, like a queue in use. */
const STATES: readonly SeedState[] = ['pending', 'scheduled', 'retry'];

/** The name of queue `i` of `n`, zero-padded so the name order is the index order. */
export const scaleQueueName = (i: number, n: number): string => `scale-${String(i).padStart(String(n - 1).length, '0')}`;

/** Seeds `queues` queues `scale-…` with one task in each of STATES (3 tasks a queue). */
export async function seedScaleQueues(redis: Redis, queues: number): Promise<void> {
  const sha = (await redis.script('LOAD', await readFile(new URL('./seed-tasks.lua', import.meta.url), 'utf8'))) as string;
  const nowMs = Date.now();
  const s = Math.floor(nowMs / 1000);
  const stamp: Record<string, string> = { pending: String(BigInt(nowMs) * 1_000_000n), scheduled: String(s + 3600), retry: String(s + 600) };
  let p = redis.pipeline();
  let n = 0;
  for (let i = 0; i < queues; i++) {
    const queue = scaleQueueName(i, queues);
    for (const state of STATES) {
      const batch = { queue, state, count: 1, idFormat: `c${String(i).padStart(7, '0')}-0000-4000-8000-%012d` };
      const { prefix, suffix } = messageParts(batch);
      const key = state === 'pending' ? k.pendingKey(queue) : `${k.queueKeyPrefix(queue)}${state}`;
      p.evalsha(sha, 2, key, k.ALL_QUEUES, prefix, suffix, k.taskKeyPrefix(queue), batch.idFormat, STATES.indexOf(state) + 1, 1, state, stamp[state]!, queue);
      if (++n % PIPELINE === 0) {
        await p.exec();
        p = redis.pipeline();
      }
    }
  }
  await p.exec();
}
