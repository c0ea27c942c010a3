/**
 * The processing deadline of one attempt, by asynq's processor rule.
 */
import { DEFAULT_TIMEOUT_SECONDS } from '../client/options';
import type { TaskMessage } from '../types';

/**
 * Neither timeout nor deadline → now + 30 min; both → the earlier of now + timeout and the
 * deadline, in whole seconds; only a timeout → now + timeout; only a deadline → the deadline.
 */
export function computeDeadline(msg: Pick<TaskMessage, 'timeout' | 'deadline'>, now: Date): Date {
  const nowMs = now.getTime();
  if (msg.timeout === 0 && msg.deadline === 0) return new Date(nowMs + DEFAULT_TIMEOUT_SECONDS * 1000);
  if (msg.timeout !== 0 && msg.deadline !== 0) {
    return new Date(Math.min(Math.floor(nowMs / 1000) + msg.timeout, msg.deadline) * 1000);
  }
  if (msg.timeout !== 0) return new Date(nowMs + msg.timeout * 1000);
  return new Date(msg.deadline * 1000);
}
