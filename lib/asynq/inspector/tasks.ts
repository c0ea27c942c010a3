/**
 * Task listing and detail, in asynq's own order and with each task's unique lock.
 */
import { assertQueueSlot } from '../topology';
import type { RedisClient } from '../redis-client';
import { invalidArgument, queueNotFound, taskNotFound } from '../errors';
import * as k from '../keys';
import { pageRange, type PageParams } from '../pagination';
import { asArray, asNumber, asText } from '../reply';
import { execPipeline, pipeScript } from '../scripts';
import type { TaskState } from '../states';
import type { TaskInfo, TaskPage } from '../types';
import { listAllAggregating } from './aggregating';
import { fillLocks } from './locks';
import { lockNeedsLookup, toTaskInfo, type RawTask } from './task-row';

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

function sourceKey(qname: string, state: TaskState, group: string): string {
  switch (state) {
    case 'pending':
      return k.pendingKey(qname);
    case 'active':
      return k.activeKey(qname);
    case 'aggregating':
      return k.groupKey(qname, group);
    default:
      return `${k.queueKeyPrefix(qname)}${state}`;
  }
}

/** asynq's NextProcessAt: now for pending, the zset score for scheduled and retry, else none. */
function nextProcessAt(state: TaskState, score: number | null, now: Date): Date | null {
  if (state === 'pending') return now;
  if ((state === 'scheduled' || state === 'retry') && score !== null) return new Date(score * 1000);
  return null;
}

function toRows(qname: string, state: TaskState, rows: unknown[], now: Date): [RawTask, TaskInfo][] {
  return rows.map((r) => {
    const [id, msg, hashState, result, ukey, holder, pttl, score, lease, pendingSince] = asArray(r, 'task row');
    const raw: RawTask = {
      id: asText(id) ?? '',
      queue: qname,
      state,
      msg,
      hashState: hashState ?? null,
      result,
      hashUniqueKey: ukey,
      lockHolder: holder,
      lockPttl: pttl,
      pendingSince,
    };
    const leaseAt = asNumber(lease);
    const orphaned = state === 'active' && leaseAt !== null && leaseAt <= now.getTime() / 1000;
    return [raw, toTaskInfo(raw, nextProcessAt(state, asNumber(score), now), orphaned)];
  });
}

/**
 * One page of one state's tasks, in the order asynq's inspector lists them (pending and
 * active oldest first; zsets by ascending score). One round trip: the queue check and the
 * listing script share a pipeline (plus one when a task names a lock only in its msg).
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

/** Tasks at ranks [start, stop] of one state structure; see {@link listTasks}. */
export async function listRange(
  redis: RedisClient,
  qname: string,
  state: TaskState,
  group: string,
  [start, stop]: [number, number],
  now: Date,
): Promise<TaskPage> {
  const isList = state === 'pending' || state === 'active';
  const [[, member], [err, reply]] = (await execPipeline(
    redis,
    (p) => {
      p.sismember(k.ALL_QUEUES, qname);
      pipeScript(p, 'listTasks', [sourceKey(qname, state, group), k.leaseKey(qname)], [
        isList ? 'list' : 'zset',
        start,
        stop,
        k.taskKeyPrefix(qname),
        k.uniqueKeyPrefix(qname),
        state === 'active' ? '1' : '0',
      ]);
    },
    ['listTasks'],
  )) as [[Error | null, unknown], [Error | null, unknown]];
  if (member !== 1) throw queueNotFound('listTasks', qname);
  if (err) throw err;
  const [total, rows] = asArray(reply, 'listTasks');
  const pairs = toRows(qname, state, asArray(rows, 'listTasks rows'), now);
  await fillLocks(redis, qname, pairs.filter(([raw, t]) => lockNeedsLookup(raw, t)).map(([, t]) => t));
  return { tasks: pairs.map(([, t]) => t), total: asNumber(total) ?? 0 };
}

/**
 * One task with its unique lock. One round trip (queue check + script), plus one when the
 * task names a lock only in its msg. Throws queue_not_found or task_not_found.
 */
export async function getTask(redis: RedisClient, qname: string, id: string, now: Date): Promise<TaskInfo> {
  assertQueueSlot(redis, 'getTask', qname);
  const [[, member], [err, reply]] = (await execPipeline(
    redis,
    (p) => {
      p.sismember(k.ALL_QUEUES, qname);
      pipeScript(p, 'getTask', [k.taskKey(qname, id), k.leaseKey(qname)], [
        id,
        k.queueKeyPrefix(qname),
        k.uniqueKeyPrefix(qname),
      ]);
    },
    ['getTask'],
  )) as [[Error | null, unknown], [Error | null, unknown]];
  if (member !== 1) throw queueNotFound('getTask', qname);
  if (err) throw err;
  if (reply === 0) throw taskNotFound('getTask', qname, id);
  const [msg, hashState, result, ukey, pendingSince, , holder, pttl, score, lease] = asArray(reply, 'getTask');
  const state = asText(hashState) ?? 'unknown';
  const raw: RawTask = {
    id, queue: qname, state, msg, hashState: hashState ?? null, result,
    hashUniqueKey: ukey, lockHolder: holder, lockPttl: pttl, pendingSince,
  };
  const leaseAt = asNumber(lease);
  const info = toTaskInfo(
    raw,
    nextProcessAt(state as TaskState, asNumber(score), now),
    state === 'active' && leaseAt !== null && leaseAt <= now.getTime() / 1000,
  );
  if (lockNeedsLookup(raw, info)) await fillLocks(redis, qname, [info]);
  return info;
}

/** The raw payload bytes of a task. Same cost as {@link getTask}. */
export async function getTaskPayload(redis: RedisClient, qname: string, id: string, now: Date): Promise<Uint8Array> {
  const task = await getTask(redis, qname, id, now);
  if (!task.message) throw taskNotFound('getTaskPayload', qname, id);
  return task.message.payload;
}
