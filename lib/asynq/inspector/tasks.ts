/**
 * Task listing and detail, in asynq's own order and with each task's unique lock.
 */
import { assertQueueSlot } from '../topology';
import type { RedisClient } from '../redis-client';
import { invalidArgument, queueNotFound, taskNotFound } from '../errors';
import * as k from '../keys';
import { pageRange, type PageParams } from '../pagination';
import { asArray, asNumber, asText } from '../reply';
import { runScriptInQueue } from '../scripts';
import type { TaskState } from '../states';
import type { TaskInfo, TaskPage } from '../types';
import { listAllAggregating } from './aggregating';
import { fillLocks } from './locks';
import { listRange } from './task-range';
import { isLeaseExpired, lockNeedsLookup, nextProcessAt, toTaskInfo, type RawTask } from './task-row';

export interface ListOptions extends PageParams {
  /** Required by asynq for aggregating tasks; here optional (then every group, by name). */
  group?: string | undefined;
}

function checkPage(op: string, { page, size }: PageParams): void {
  if (!Number.isInteger(size) || size < 1 || size > 100) {
    throw invalidArgument(op, 'size', 'size must be an integer from 1 to 100');
  }
  if (!Number.isInteger(page) || page < 1) throw invalidArgument(op, 'page', 'page must be an integer ≥ 1');
}

/**
 * One page of one state's tasks, in the order asynq's inspector lists them; see
 * {@link listRange} for the order and the cost.
 */
export async function listTasks(
  redis: RedisClient,
  qname: string,
  state: TaskState,
  opts: ListOptions,
  now: Date,
): Promise<TaskPage> {
  checkPage('listTasks', opts);
  assertQueueSlot(redis, 'listTasks', qname);
  if (state === 'aggregating' && opts.group === undefined) {
    return listAllAggregating(redis, qname, opts, now);
  }
  return listRange(redis, qname, state, opts.group ?? '', pageRange(opts), now);
}

/**
 * One task with its unique lock. One round trip (queue check + script), plus one when the
 * task names a lock only in its msg. Throws queue_not_found or task_not_found.
 */
export async function getTask(redis: RedisClient, qname: string, id: string, now: Date): Promise<TaskInfo> {
  assertQueueSlot(redis, 'getTask', qname);
  const reply = await runScriptInQueue(redis, 'getTask', qname, [k.taskKey(qname, id), k.leaseKey(qname)], [id, k.queueKeyPrefix(qname), k.uniqueKeyPrefix(qname)]);
  if (reply === -1) throw queueNotFound('getTask', qname);
  if (reply === 0) throw taskNotFound('getTask', qname, id);
  const [msg, hashState, result, ukey, pendingSince, , holder, pttl, score, lease, hashType] = asArray(reply, 'getTask');
  const state = asText(hashState) ?? 'unknown';
  const raw: RawTask = {
    id, queue: qname, state, msg, hashState: hashState ?? null, result,
    hashUniqueKey: ukey, lockHolder: holder, lockPttl: pttl, pendingSince, hashType: asText(hashType),
  };
  const info = toTaskInfo(raw, nextProcessAt(state, asNumber(score), now), isLeaseExpired(state, lease, now));
  if (lockNeedsLookup(raw, info)) await fillLocks(redis, qname, [info]);
  return info;
}

/** The raw payload bytes of a task. Same cost as {@link getTask}. */
export async function getTaskPayload(redis: RedisClient, qname: string, id: string, now: Date): Promise<Uint8Array> {
  const task = await getTask(redis, qname, id, now);
  if (!task.message) throw taskNotFound('getTaskPayload', qname, id);
  return task.message.payload;
}
