/**
 * Moving a scheduled or retry task to another time. asynq has no such operation: its
 * forwarder moves a task to pending once its score in the scheduled or retry set has passed,
 * and the task hash holds no process time, so changing that score is the whole change
 * (reschedule-task.lua). The unique lock, if any, keeps the TTL it was given at enqueue.
 */
import { assertQueueExists } from '../inspector/queues';
import type { RedisClient } from '../redis-client';
import { AsynqError, actionQueueNotFound, actionTaskNotFound, failedPrecondition, invalidArgument } from '../errors';
import * as k from '../keys';
import { asArray, asNumber, asText } from '../reply';
import { runScript } from '../scripts';
import { utcTime } from '../triage/verdict-words';

/** How far in the past a new time may be (a clock a little behind, a form left open a while). */
export const RESCHEDULE_PAST_TOLERANCE_S = 60;
/** How far ahead: a year, past which a time is far more likely a typo than a plan. */
export const RESCHEDULE_MAX_AHEAD_S = 365 * 86_400;

/** The new score, or invalid_argument naming `processAt` when the time is out of bounds. */
export function rescheduleScore(op: string, processAt: Date, now: Date): number {
  const at = processAt.getTime() / 1000;
  const nowS = now.getTime() / 1000;
  if (!Number.isFinite(at)) throw invalidArgument(op, 'processAt', 'processAt: not a time');
  if (at < nowS - RESCHEDULE_PAST_TOLERANCE_S) {
    throw invalidArgument(op, 'processAt', `processAt: ${utcTime(processAt)} is in the past (more than a minute before now)`);
  }
  if (at > nowS + RESCHEDULE_MAX_AHEAD_S) {
    throw invalidArgument(op, 'processAt', `processAt: ${utcTime(processAt)} is more than a year ahead`);
  }
  // asynq scores the scheduled and retry sets in whole Unix seconds.
  return Math.floor(at);
}

/**
 * Gives a scheduled or retry task a new process time. Two round trips: the queue check (its
 * registry lives in another cluster slot), then the script. Throws invalid_argument (the
 * time), queue_not_found, task_not_found or failed_precondition; nothing changes when it throws.
 */
export async function rescheduleTask(redis: RedisClient, qname: string, id: string, processAt: Date, now: Date): Promise<void> {
  const op = 'rescheduleTask';
  const score = rescheduleScore(op, processAt, now);
  await assertQueueExists(redis, op, qname, actionQueueNotFound);
  const [code, state] = asArray(await runScript(redis, 'rescheduleTask', [k.taskKey(qname, id)], [id, k.queueKeyPrefix(qname), score]), op);
  const found = asText(state);
  switch (asNumber(code)) {
    case 1:
      return;
    case 0:
      throw actionTaskNotFound(op, qname, id);
    case -1:
      throw failedPrecondition(op, `cannot reschedule task in ${found} state: only scheduled and retry tasks have a process time`, { id, state: found });
    case -2:
      throw failedPrecondition(op, `task ${id} is not in the set its state names; nothing was changed`, { id, state: found });
    default:
      throw new AsynqError('INTERNAL', 'internal', `rescheduleTask returned ${String(code)}`, op);
  }
}
