/**
 * Many tasks in one round trip; no released asynq has such an API, so this is the console's
 * own. Each task is validated on its own with asynq's client rules before any Redis I/O
 * (unique and group tasks are refused, since one lock per task cannot be taken in a plain
 * pipeline), then one pipeline carries them all, each with asynq's enqueue script.
 */
import { randomUUID } from 'node:crypto';
import { queueSlotError } from '../topology';
import type { RedisClient } from '../redis-client';
import { invalidArgument, isAsynqError, taskIdConflictError, type AsynqError } from '../errors';
import * as k from '../keys';
import { asNumber } from '../reply';
import { execPipeline, pipeScript, type ScriptName } from '../scripts';
import { buildMessage, planEnqueue } from './enqueue';
import { composeOptions, type EnqueueOptions, type NewTask } from './options';

export type BatchItemResult =
  | { ok: true; id: string; queue: string; state: 'pending' | 'scheduled' }
  | { ok: false; error: AsynqError };

/**
 * Enqueues every valid item. One round trip for all of them (plus a script load the first
 * time). Unlike asynq, an ID conflict is reported per item instead of counted as success.
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
  const used = [...new Set(plans.map((p) => p.plan.script))] as ScriptName[];
  const replies = await execPipeline(
    redis,
    (p) => {
      for (const q of queues) p.sadd(k.ALL_QUEUES, q);
      for (const { plan } of plans) pipeScript(p, plan.script, plan.keys, plan.args);
    },
    used,
    // On a cluster the queues are registered before any task is written, as asynq's client does.
    { leadFirst: true },
  );
  plans.forEach(({ index, plan, queue, id }, i) => {
    const [err, code] = replies[queues.length + i] ?? [new Error('no reply'), null];
    if (err) throw err;
    results[index] =
      asNumber(code) === 1
        ? { ok: true, id, queue, state: plan.state as 'pending' | 'scheduled' }
        : { ok: false, error: taskIdConflictError(op, { existing: { id, queue } }) };
  });
  return results;
}
