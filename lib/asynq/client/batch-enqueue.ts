/**
 * Many tasks in one round trip; no released asynq has such an API, so this is the console's
 * own. Each task is validated on its own with asynq's client rules before any Redis I/O
 * (unique and group tasks are refused, since one lock per task cannot be taken in a plain
 * pipeline), then one pipeline carries them all, each written as asynq's enqueue or schedule
 * script writes it.
 */
import { randomUUID } from 'node:crypto';
import { queueSlotError } from '../topology';
import type { RedisClient } from '../redis-client';
import { invalidArgument, isAsynqError, taskIdConflictError, type AsynqError } from '../errors';
import * as k from '../keys';
import { asNumber } from '../reply';
import { execPipeline, pipeScript } from '../scripts';
import { buildMessage, planEnqueue } from './enqueue';
import { describeTaskInTheWay } from './task-in-the-way';
import { emptyCall, joinTask, MAX_TASKS, taskCodes } from './enqueue-batch';
import type { ScriptCall } from './register-and-run';
import { composeOptions, type EnqueueOptions, type NewTask } from './options';

export type BatchItemResult =
  | { ok: true; id: string; queue: string; state: 'pending' | 'scheduled' }
  | { ok: false; error: AsynqError };

/**
 * ID conflicts whose task in the way is described (its state; when archived, since when and its
 * last error), as a single enqueue's refusal describes it, so the operator can judge "delete the
 * archived task and enqueue" for that line. Past this many, a conflict names the task only: a
 * batch that conflicts by the hundred is a replayed file, and each description may read a msg.
 */
export const CONFLICTS_DESCRIBED = 100;

/**
 * Enqueues every valid item. One round trip for all of them (plus a script load the first
 * time): the queues' registration, then one enqueue.lua call per queue and MAX_TASKS (16)
 * tasks to run now, and one call per scheduled task; on ID conflicts one or two more, the
 * descriptions sent together (describeTaskInTheWay: O(1) reads each, a msg of at most 1 MiB for
 * an archived one). Unlike asynq, an ID conflict is reported per item instead of counted as
 * success.
 */
export async function batchEnqueue(
  redis: RedisClient,
  items: readonly { task: NewTask; options?: EnqueueOptions }[],
  now: Date,
): Promise<BatchItemResult[]> {
  const op = 'batchEnqueue';
  const results: BatchItemResult[] = [];
  const plans: { index: number; plan: ReturnType<typeof planEnqueue>; queue: string; id: string }[] = [];
  items.forEach(({ task, options = {} }, index) => {
    try {
      if (options.group !== undefined) throw invalidArgument(op, 'group', 'batch enqueue does not support group tasks');
      if (options.uniqueTtlSeconds !== undefined) {
        throw invalidArgument(op, 'uniqueTtlSeconds', 'batch enqueue does not support unique tasks');
      }
      const o = composeOptions(op, task, options, now, randomUUID);
      const slotError = queueSlotError(redis, op, o.queue);
      if (slotError) throw slotError;
      plans.push({ index, plan: planEnqueue(buildMessage(task, o), o, now), queue: o.queue, id: o.taskId });
      results[index] = { ok: true, id: o.taskId, queue: o.queue, state: 'pending' };
    } catch (err) {
      if (!isAsynqError(err)) throw err;
      results[index] = { ok: false, error: err };
    }
  });
  if (plans.length === 0) return results;
  const queues = [...new Set(plans.map((p) => p.queue))];
  // Tasks to run now join enqueue.lua calls per queue (at most MAX_TASKS each), as the enqueues
  // of one tick do (enqueue-batch.ts); a scheduled task is a call of its own.
  const calls: { call: ScriptCall; members: typeof plans }[] = [];
  const filling = new Map<string, { call: ScriptCall; members: typeof plans }>();
  for (const item of plans) {
    if (item.plan.script !== 'enqueue') {
      calls.push({ call: item.plan, members: [item] });
      // Later tasks of its queue go after it: the items are written in the order given.
      filling.delete(item.queue);
      continue;
    }
    let open = filling.get(item.queue);
    if (!open) {
      open = { call: emptyCall(item.plan), members: [] };
      calls.push(open);
      filling.set(item.queue, open);
    }
    open.members.push(item);
    if (joinTask(open.call, item.plan) >= MAX_TASKS) filling.delete(item.queue);
  }
  const used = [...new Set(calls.map((c) => c.call.script))];
  const replies = await execPipeline(
    redis,
    (p) => {
      for (const q of queues) p.sadd(k.ALL_QUEUES, q);
      for (const { call } of calls) pipeScript(p, call.script, call.keys, call.args);
    },
    used,
    // On a cluster the queues are registered before any task is written, as asynq's client does.
    { leadFirst: true },
  );
  const conflicts: { index: number; queue: string; id: string }[] = [];
  calls.forEach(({ call, members }, i) => {
    const [err, reply] = replies[queues.length + i] ?? [new Error('no reply'), null];
    if (err) throw err;
    const codes = call.script === 'enqueue' ? taskCodes(reply, members.length) : [asNumber(reply)];
    members.forEach(({ index, plan, queue, id }, j) => {
      if (codes[j] === 1) results[index] = { ok: true, id, queue, state: plan.state as 'pending' | 'scheduled' };
      else conflicts.push({ index, queue, id });
    });
  });
  const described = await Promise.all(conflicts.slice(0, CONFLICTS_DESCRIBED).map((c) => describeTaskInTheWay(redis, c.queue, c.id)));
  conflicts.forEach(({ index, queue, id }, i) => {
    const d = described[i];
    results[index] = { ok: false, error: taskIdConflictError(op, { existing: d ? { id, queue, state: d.state, archived: d.archived } : { id, queue } }) };
  });
  return results;
}
