/**
 * Enqueue, schedule and group-add, with every option of asynq's client, writing exactly what
 * a Go client writes so Go servers process these tasks and Go clients see their locks.
 */
import { randomUUID } from 'node:crypto';
import { assertQueueSlot } from '../topology';
import type { RedisClient } from '../redis-client';
import { encodeTaskMessage } from '../codec';
import { duplicateTaskError, taskIdConflictError, type AsynqError } from '../errors';
import * as k from '../keys';
import { asNumber } from '../reply';
import { execPipeline } from '../scripts';
import type { TaskInfo, TaskMessage } from '../types';
import { enqueueNow } from './enqueue-batch';
import { registerAndRun, type ScriptCall } from './register-and-run';
import { describeTaskInTheWay } from './task-in-the-way';
import { composeOptions, type ComposedOptions, type EnqueueOptions, type NewTask } from './options';

/**
 * asynq.ErrDuplicateTask: the unique lock for this queue, type and payload is held. The
 * details name the lock, its holder and the holder's state (with when and why it was archived,
 * when it is): two more round trips, on a refusal only.
 */
export async function duplicateTask(redis: RedisClient, op: string, lockKey: string, qname: string): Promise<AsynqError> {
  const [[, holder], [, pttl]] = (await execPipeline(redis, (p) => p.get(lockKey).pttl(lockKey))) as [[null, string | null], [null, number]];
  const ttlSeconds = pttl === -2 ? null : pttl === -1 ? -1 : pttl / 1000;
  const held = holder === null ? null : await describeTaskInTheWay(redis, qname, holder);
  return duplicateTaskError(op, {
    lock: { key: lockKey, ttlSeconds, holderId: holder, holderState: held?.state ?? null, holderArchived: held?.archived ?? null },
  });
}

/** asynq.ErrTaskIDConflict: a task with this ID exists in the queue; the details describe it. One more round trip. */
export async function taskIdConflict(redis: RedisClient, op: string, qname: string, id: string): Promise<AsynqError> {
  const { state, archived } = await describeTaskInTheWay(redis, qname, id);
  return taskIdConflictError(op, {
    existing: { id, queue: qname, state, archived },
  });
}

export function buildMessage(task: NewTask, o: ComposedOptions): TaskMessage {
  return {
    type: task.type,
    payload: task.payload ?? new Uint8Array(),
    id: o.taskId,
    queue: o.queue,
    retry: o.retry,
    retried: 0,
    errorMsg: '',
    timeout: o.timeout,
    deadline: o.deadline,
    uniqueKey: o.uniqueTtl > 0 ? k.uniqueKey(o.queue, task.type, task.payload) : '',
    lastFailedAt: 0,
    retention: o.retention,
    completedAt: 0,
    groupKey: o.group,
    headers: o.headers,
  };
}

/** Unix nanoseconds in decimal (past 2^53, so a string); whole milliseconds, as Date has. */
function unixNanos(t: Date): string {
  const ms = t.getTime();
  return ms > 0 ? `${ms}000000` : (BigInt(ms) * 1_000_000n).toString();
}

/**
 * The lock of a scheduled unique task: it lasts until processAt + TTL, in whole seconds, as
 * asynq's client computes it (client.go `schedule`: `time.Until(processAt.Add(uniqueTTL))`, then
 * rdb.go `int(ttl.Seconds())`). That `time.Until` is a clock read of its own, taken after
 * processAt was fixed (ProcessIn reads the clock in composeOptions, EnqueueContext again, and
 * `schedule` a third time), so Go's span is always a few microseconds short of processAt + TTL
 * − now, and the truncation then lands one second lower whenever the span is whole seconds
 * (ProcessIn(10s) with Unique(60s): 69, not 70). Here `now` stands for the instant of that last
 * read, so the lock is the largest whole number of seconds strictly below the span: the
 * same value for every span not within those microseconds of a whole second.
 */
export function scheduledLockTtl(processAt: Date, uniqueTtlSeconds: number, now: Date): number {
  const spanMs = processAt.getTime() + uniqueTtlSeconds * 1000 - now.getTime();
  return Math.ceil(spanMs / 1000) - 1;
}

/** The script call that writes a task, and where it puts it. */
export interface Plan extends ScriptCall {
  state: 'pending' | 'scheduled' | 'aggregating';
  /** Seconds the unique lock is taken for (0 when not unique). */
  lockTtl?: number;
}

/** Picks asynq's route: future processAt → scheduled; else group → aggregating; else pending. */
export function planEnqueue(msg: TaskMessage, o: ComposedOptions, now: Date): Plan {
  const encoded = encodeTaskMessage(msg);
  const bytes = Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength);
  const q = o.queue;
  const id = o.taskId;
  const unique = msg.uniqueKey !== '';
  const nowSec = Math.floor(now.getTime() / 1000);
  if (o.processAt.getTime() > now.getTime()) {
    const at = Math.floor(o.processAt.getTime() / 1000);
    if (!unique) return { script: 'schedule', keys: [k.taskKey(q, id), k.scheduledKey(q)], args: [bytes, at, id], state: 'scheduled' };
    const ttl = scheduledLockTtl(o.processAt, o.uniqueTtl, now);
    return { script: 'scheduleUnique', keys: [msg.uniqueKey, k.taskKey(q, id), k.scheduledKey(q)], args: [id, ttl, at, bytes], state: 'scheduled', lockTtl: ttl };
  }
  const ttl = Math.trunc(o.uniqueTtl);
  if (o.group !== '') {
    const keys = [k.taskKey(q, id), k.groupKey(q, o.group), k.allGroups(q)];
    if (!unique) return { script: 'addToGroup', keys, args: [bytes, id, nowSec, o.group], state: 'aggregating' };
    return { script: 'addToGroupUnique', keys: [...keys, msg.uniqueKey], args: [bytes, id, nowSec, o.group, ttl], state: 'aggregating', lockTtl: ttl };
  }
  const nowNs = unixNanos(now);
  // enqueue.lua with one task; enqueueNow joins such calls of one tick (enqueue-batch.ts).
  if (!unique) return { script: 'enqueue', keys: [k.pendingKey(q), k.taskKey(q, id)], args: [q, bytes, id, nowNs], state: 'pending' };
  return { script: 'enqueueUnique', keys: [msg.uniqueKey, k.taskKey(q, id), k.pendingKey(q)], args: [id, ttl, bytes, nowNs], state: 'pending', lockTtl: ttl };
}

/**
 * Enqueues one task. One round trip, shared with the other enqueues to run now that this
 * connection is given in the same tick (enqueue-batch.ts); one more to describe the holder or
 * the existing task when it is refused. The queue is registered first (SADD asynq:queues), as
 * asynq's client does.
 * Throws invalid_argument (asynq's rule text), duplicate_task or task_id_conflict.
 */
export async function enqueueTask(redis: RedisClient, task: NewTask, opts: EnqueueOptions, now: Date): Promise<TaskInfo> {
  const op = 'enqueue';
  const o = composeOptions(op, task, opts, now, randomUUID);
  assertQueueSlot(redis, op, o.queue);
  const msg = buildMessage(task, o);
  const plan = planEnqueue(msg, o, now);
  const n = plan.script === 'enqueue' ? await enqueueNow(redis, o.queue, plan) : asNumber(await registerAndRun(redis, o.queue, plan));
  if (n === -1) throw await duplicateTask(redis, op, msg.uniqueKey, o.queue);
  if (n === 0) throw await taskIdConflict(redis, op, o.queue, o.taskId);
  return enqueuedInfo(msg, o, plan, now);
}

/** The TaskInfo of a task just written by `plan`, as asynq's client returns it. */
export function enqueuedInfo(msg: TaskMessage, o: ComposedOptions, plan: Plan, now: Date): TaskInfo {
  return {
    id: msg.id,
    queue: msg.queue,
    state: plan.state,
    message: msg,
    problem: null,
    nextProcessAt: plan.state === 'scheduled' ? o.processAt : plan.state === 'pending' ? now : null,
    result: null,
    isOrphaned: false,
    uniqueLock: msg.uniqueKey ? { key: msg.uniqueKey, ttlSeconds: plan.lockTtl ?? null, holderId: msg.id, ownedByThisTask: true } : null,
    pendingSince: plan.state === 'pending' ? unixNanos(now) : null,
  };
}
