/**
 * Single-task state changes: run, archive, delete, cancel and payload update, each with
 * asynq's semantics and error texts.
 */
import { assertQueueSlot } from '../topology';
import { assertQueueExists } from '../inspector/queues';
import type { RedisClient } from '../redis-client';
import { decodeTaskMessage, encodeTaskMessage } from '../codec';
import { AsynqError, actionQueueNotFound, actionTaskNotFound, failedPrecondition, queueNotFound, taskNotFound } from '../errors';
import * as k from '../keys';
import { asArray, asBytes, asNumber } from '../reply';
import { execPipeline, runScript } from '../scripts';
import { archiveCutoff, MAX_ARCHIVE_SIZE } from './archive-limits';
import { trimArchive } from './archive-trim';
import { CALL_BUDGET_US } from '../call-sizer';
import { moveError, type MoveAction } from './move-codes';

/** Arguments of move-tasks.lua for `ids` of a queue. */
export function moveArgs(qname: string, action: MoveAction, requiredState: string, ids: readonly string[], now: Date, timeZone?: string) {
  return {
    keys: [k.pendingKey(qname), k.archivedKey(qname), k.allGroups(qname)],
    args: [
      action, requiredState, k.queueKeyPrefix(qname), Math.floor(now.getTime() / 1000), archiveCutoff(now, timeZone), MAX_ARCHIVE_SIZE,
      k.uniqueKeyPrefix(qname), CALL_BUDGET_US, ...ids,
    ],
  };
}

/**
 * Runs, archives or deletes one task in any state that allows it (an archive's 90 days counted
 * in `timeZone`, UTC by default: archive-limits.ts). Two round trips: the queue
 * check must come first (a script cannot read asynq:queues, which lives in another cluster
 * slot), then the script; an archive that leaves more to trim than its call may take trims
 * the rest in calls of its own (archive-trim.ts). Throws queue_not_found, task_not_found (the Inspector's words) or
 * failed_precondition with asynq's text; nothing changes in Redis when it throws.
 */
export async function moveTask(redis: RedisClient, qname: string, id: string, action: MoveAction, now: Date, timeZone?: string): Promise<void> {
  const op = `${action}Task`;
  await assertQueueExists(redis, op, qname, actionQueueNotFound);
  const { keys, args } = moveArgs(qname, action, '', [id], now, timeZone);
  // { code, trimmed, still due to be trimmed, elapsed µs }
  const [code, , due] = asArray(await runScript(redis, 'moveTasks', keys, args), 'moveTasks').map((v) => asNumber(v) ?? 0);
  if (code !== 1) throw moveError(op, action, code ?? 0, qname, id, '');
  if ((due ?? 0) > 0) await trimArchive(redis, qname, now, timeZone);
}

/**
 * Asks the server processing an active task to cancel it (PUBLISH on asynq's cancel channel;
 * best effort, like asynq: the handler sees its context canceled). Two round trips.
 */
export async function cancelTask(redis: RedisClient, qname: string, id: string): Promise<void> {
  assertQueueSlot(redis, 'cancelTask', qname);
  const [[, member], [, state]] = (await execPipeline(redis, (p) => p.sismember(k.ALL_QUEUES, qname).hget(k.taskKey(qname, id), 'state'))) as [[null, number], [null, string | null]];
  if (member !== 1) throw queueNotFound('cancelTask', qname);
  if (state === null) throw taskNotFound('cancelTask', qname, id);
  if (state !== 'active') throw failedPrecondition('cancelTask', `task is not active (state: ${state})`, { id, state });
  await redis.publish(k.CANCEL_CHANNEL, id);
}

/**
 * Replaces the payload of a scheduled task, keeping every other field (asynq 0.26 rules: the
 * unique key is not recomputed). Two round trips; the write only happens if the msg is still
 * the one read, so a concurrent change is never overwritten.
 */
export async function updateTaskPayload(redis: RedisClient, qname: string, id: string, payload: Uint8Array): Promise<void> {
  const op = 'updateTaskPayload';
  assertQueueSlot(redis, op, qname);
  const [[, member], [, fields]] = (await execPipeline(redis, (p) => p.sismember(k.ALL_QUEUES, qname).hmgetBuffer(k.taskKey(qname, id), 'msg', 'state'))) as [[null, number], [null, (Buffer | null)[]]];
  if (member !== 1) throw actionQueueNotFound(op, qname);
  const old = asBytes(fields[0]);
  if (old === null) throw actionTaskNotFound(op, qname, id);
  if (fields[1]?.toString() !== 'scheduled') {
    throw failedPrecondition(op, 'cannot update task that is not in scheduled state.', { id, state: fields[1]?.toString() ?? null });
  }
  const next = Buffer.from(encodeTaskMessage({ ...decodeTaskMessage(old), payload }));
  const code = asNumber(await runScript(redis, 'updatePayload', [k.taskKey(qname, id)], [next, old]));
  if (code === 0) throw actionTaskNotFound(op, qname, id);
  if (code === -1) throw failedPrecondition(op, 'cannot update task that is not in scheduled state.', { id });
  if (code === -2) throw failedPrecondition(op, 'task changed while it was being updated; try again', { id });
  if (code !== 1) throw new AsynqError('INTERNAL', 'internal', `updatePayload returned ${code}`, op);
}
