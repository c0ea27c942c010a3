/**
 * The task-ID fast path: an ID names at most one task per queue, so it is looked up directly
 * in every chosen queue instead of scanning anything.
 */
import type { RedisClient } from '../redis-client';
import { asBytes } from '../reply';
import { isTaskState, type TaskState } from '../states';
import { readTasks, type ReadTask } from './hydrate';
import type { RowPredicate } from './predicate';

/**
 * The tasks with ID `id` in `queues` that are in one of `states` (when `anyState` is false)
 * and pass `predicate`. One round trip for any number of queues (plus one for msg-only locks).
 */
export async function findById(
  redis: RedisClient,
  id: string,
  queues: readonly string[],
  states: readonly TaskState[],
  anyState: boolean,
  predicate: RowPredicate,
  now: Date,
): Promise<{ found: ReadTask[]; examined: number }> {
  const read = await readTasks(redis, queues.map((queue) => ({ queue, state: '', id })), now);
  const existing = read.filter((r) => r.found);
  const nowSec = now.getTime() / 1000;
  const found = existing.filter(({ info, raw, score }) => {
    const state = info.state;
    if (!anyState && !(isTaskState(state) && states.includes(state))) return false;
    const row = { state: state as TaskState, id: Buffer.from(id), msg: asBytes(raw.msg), score };
    return predicate(row, nowSec);
  });
  return { found, examined: existing.length };
}
