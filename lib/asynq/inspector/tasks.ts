/**
 * Task listing and detail, in asynq's own order and with each task's unique lock.
 */
import { assertQueueSlot, isCluster } from '../topology';
import type { RedisClient } from '../redis-client';
import { invalidArgument, queueNotFound, taskNotFound } from '../errors';
import * as k from '../keys';
import { pageRange, type PageParams } from '../pagination';
import { asArray, asNumber, asText } from '../reply';
import { execPipeline, pipeScript, runScript } from '../scripts';
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
  const reply = await readTask(redis, qname, id);
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

/**
 * get-task.lua's reply, -1 when the queue is not registered. On a single Redis one command (the
 * script checks asynq:queues itself: a pipeline of two costs this process about twice the CPU
 * of one call, the larger part of a task detail's own time); on a Cluster, where asynq:queues
 * is in another slot, SISMEMBER beside the script in one round trip.
 */
async function readTask(redis: RedisClient, qname: string, id: string): Promise<unknown> {
  const keys = [k.taskKey(qname, id), k.leaseKey(qname)];
  const args = [id, k.queueKeyPrefix(qname), k.uniqueKeyPrefix(qname)];
  if (!isCluster(redis)) return runScript(redis, 'getTask', [...keys, k.ALL_QUEUES], [...args, qname]);
  const [[, member], [err, reply]] = (await execPipeline(redis, (p) => {
    p.sismember(k.ALL_QUEUES, qname);
    pipeScript(p, 'getTask', keys, args);
  }, ['getTask'])) as [[Error | null, unknown], [Error | null, unknown]];
  if (member !== 1) return -1;
  if (err) throw err;
  return reply;
}

/** The raw payload bytes of a task. Same cost as {@link getTask}. */
export async function getTaskPayload(redis: RedisClient, qname: string, id: string, now: Date): Promise<Uint8Array> {
  const task = await getTask(redis, qname, id, now);
  if (!task.message) throw taskNotFound('getTaskPayload', qname, id);
  return task.message.payload;
}
