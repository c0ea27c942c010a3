/**
 * One rank range of one state structure, read with everything a task row shows: the page
 * reader under the task list of one state and of all aggregation groups at once.
 */
import type { RedisClient } from '../redis-client';
import { queueNotFound } from '../errors';
import * as k from '../keys';
import { asArray, asNumber, asText } from '../reply';
import { runScriptInQueue } from '../scripts';
import { isListState, type TaskState } from '../states';
import type { TaskInfo, TaskPage } from '../types';
import { fillLocks } from './locks';
import { explainWrongType } from './wrong-type';
import { isLeaseExpired, lockNeedsLookup, nextProcessAt, toTaskInfo, type RawTask } from './task-row';

function toRows(qname: string, state: TaskState, rows: unknown[], now: Date): [RawTask, TaskInfo][] {
  return rows.map((r) => {
    const [id, msg, hashState, result, ukey, holder, pttl, score, lease, pendingSince, hashType] = asArray(r, 'task row');
    const raw: RawTask = {
      id: asText(id) ?? '',
      queue: qname,
      state,
      msg,
      hashState: hashState ?? null,
      hashType: asText(hashType),
      result,
      hashUniqueKey: ukey,
      lockHolder: holder,
      lockPttl: pttl,
      pendingSince,
    };
    return [raw, toTaskInfo(raw, nextProcessAt(state, asNumber(score), now), isLeaseExpired(state, lease, now))];
  });
}

/**
 * Tasks at ranks [start, stop] of one state structure (`group` names it for aggregating), in
 * the order asynq's inspector lists them (pending and active oldest first; zsets by ascending
 * score). One round trip: the queue check and list-tasks.lua share a pipeline (plus one when a
 * task names a lock only in its msg).
 */
export async function listRange(
  redis: RedisClient,
  qname: string,
  state: TaskState,
  group: string,
  [start, stop]: [number, number],
  now: Date,
): Promise<TaskPage> {
  const keys = [k.stateKey(qname, state, group), k.leaseKey(qname)];
  const args = [isListState(state) ? 'list' : 'zset', start, stop, k.taskKeyPrefix(qname), k.uniqueKeyPrefix(qname), state === 'active' ? '1' : '0'];
  let reply: unknown;
  try {
    reply = await runScriptInQueue(redis, 'listTasks', qname, keys, args);
  } catch (err) {
    throw await explainWrongType(redis, 'listTasks', qname, err, [[keys[0]!, isListState(state) ? 'list' : 'zset']]);
  }
  if (reply === -1) throw queueNotFound('listTasks', qname);
  const [total, rows] = asArray(reply, 'listTasks');
  const pairs = toRows(qname, state, asArray(rows, 'listTasks rows'), now);
  await fillLocks(redis, qname, pairs.filter(([raw, t]) => lockNeedsLookup(raw, t)).map(([, t]) => t));
  return { tasks: pairs.map(([, t]) => t), total: asNumber(total) ?? 0 };
}

