/**
 * "Delete the archived task and enqueue": the one-step answer to an enqueue refused because an
 * archived task holds its ID (ErrTaskIDConflict) or its unique lock (ErrDuplicateTask). What
 * Redis holds afterwards is what asynq's Inspector.DeleteTask of that task followed by
 * Client.Enqueue leaves, but no other client can slip in between the two.
 */
import { randomUUID } from 'node:crypto';
import { encodeTaskMessage } from '../codec';
import { AsynqError, invalidArgument } from '../errors';
import * as k from '../keys';
import { asArray, asNumber, asText } from '../reply';
import { assertQueueSlot } from '../topology';
import type { RedisClient } from '../redis-client';
import type { TaskInfo } from '../types';
import { buildMessage, duplicateTask, enqueuedInfo, planEnqueue, taskIdConflict } from './enqueue';
import { registerAndRun } from './register-and-run';
import { composeOptions, type EnqueueOptions, type NewTask } from './options';

const OP = 'enqueueReplacingArchived';

/** A refusal because the archived task is not as the operator saw it; `details.reason` says how. */
function changed(reason: string, message: string, details: Record<string, unknown>): AsynqError {
  return new AsynqError('FAILED_PRECONDITION', 'failed_precondition', message, OP, { reason, ...details });
}

/**
 * Deletes archived task `archivedId` of the new task's queue and enqueues `task` with `opts`,
 * atomically: one script (enqueue-replacing-archived.lua) after the SADD asynq:queues that
 * asynq's client sends first; one round trip, one more to describe a refusal.
 * The archived task must stand in the way: the new task's ID is `archivedId`, or the new task is
 * unique and `archivedId` holds its lock. Otherwise nothing is written and it throws:
 * invalid_argument (asynq's option rules; field `archivedId` when blank); task_not_found when
 * the archived task is gone; failed_precondition with `reason` `not_archived` (and its `state`
 * now), `not_in_the_way` (and the lock's `holderId` now) or `not_in_archived_set`;
 * duplicate_task when another task took the lock; task_id_conflict when another task has the ID.
 */
export async function enqueueReplacingArchived(
  redis: RedisClient,
  archivedId: string,
  task: NewTask,
  opts: EnqueueOptions,
  now: Date,
): Promise<TaskInfo> {
  if (archivedId.trim() === '') throw invalidArgument(OP, 'archivedId', 'archived task ID cannot be empty');
  const o = composeOptions(OP, task, opts, now, randomUUID);
  const q = o.queue;
  assertQueueSlot(redis, OP, q);
  const msg = buildMessage(task, o);
  const plan = planEnqueue(msg, o, now);
  const [destination, score] =
    plan.state === 'pending' ? [k.pendingKey(q), (BigInt(now.getTime()) * 1_000_000n).toString()]
    : plan.state === 'scheduled' ? [k.scheduledKey(q), Math.floor(o.processAt.getTime() / 1000)]
    : [k.groupKey(q, o.group), Math.floor(now.getTime() / 1000)];
  // The lock key names the queue's slot even when the task is not unique; the script reads it only when it is.
  const lockKey = msg.uniqueKey || k.uniqueKey(q, task.type, task.payload);
  const reply = asArray(
    await registerAndRun(redis, q, {
      script: 'enqueueReplacingArchived',
      keys: [k.taskKey(q, archivedId), k.archivedKey(q), k.taskKey(q, o.taskId), lockKey, destination, k.allGroups(q)],
      args: [archivedId, o.taskId, Buffer.from(encodeTaskMessage(msg)), plan.state, score, plan.lockTtl ?? 0, o.group, k.uniqueKeyPrefix(q)],
    }),
    OP,
  );
  const code = asNumber(reply[0]);
  const detail = asText(reply[1]);
  const where = { queue: q, id: archivedId };
  switch (code) {
    case 1:
      return enqueuedInfo(msg, o, plan, now);
    case -10:
      throw new AsynqError('NOT_FOUND', 'task_not_found', `archived task ${archivedId} is gone from queue ${JSON.stringify(q)}: enqueue again`, OP, where);
    case -11:
      throw changed('not_archived', `task ${archivedId} is no longer archived: it is ${detail ?? 'in no known state'} now; nothing was deleted`, { ...where, state: detail });
    case -12:
      throw changed(
        'not_in_the_way',
        detail === null
          ? `task ${archivedId} does not stand in the way of this enqueue: the new task has another ID and its unique lock is free; nothing was deleted`
          : `task ${archivedId} does not stand in the way of this enqueue: the new task has another ID and its unique lock is held by ${detail}; nothing was deleted`,
        { ...where, holderId: detail },
      );
    case -5:
      throw changed('not_in_archived_set', `task ${archivedId} says archived but is not in the archived set; nothing was deleted`, where);
    case -1:
      throw await duplicateTask(redis, OP, msg.uniqueKey, q);
    case 0:
      throw await taskIdConflict(redis, OP, q, o.taskId);
    default:
      throw new AsynqError('INTERNAL', 'internal', `${OP} script returned unknown code ${String(code)}`, OP);
  }
}
