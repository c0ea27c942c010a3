/**
 * Turns the raw fields a script read for one task into a TaskInfo, flagging a task whose
 * record is missing or undecodable instead of dropping it (asynq's inspector skips those
 * silently, which hides exactly the tasks an operator needs to see).
 */
import { CodecError, decodeTaskMessage } from '../codec';
import { isTaskState } from '../states';
import { asBytes, asNumber, asText } from '../reply';
import type { TaskInfo, TaskMessage, UniqueLock } from '../types';

export interface RawTask {
  id: string;
  queue: string;
  /** The state the task was listed under (or, for a detail read, its hash's state). */
  state: string;
  msg: unknown;
  hashState: unknown;
  result: unknown;
  hashUniqueKey: unknown;
  lockHolder: unknown;
  lockPttl: unknown;
  pendingSince: unknown;
  /** Redis' TYPE of the task key when it is not a hash (then every field above is missing). */
  hashType?: string | null;
}

function decode(raw: RawTask): { message: TaskMessage | null; problem: string | null } {
  if (raw.hashType) return { message: null, problem: `task key holds a ${raw.hashType} where asynq writes a hash` };
  const bytes = asBytes(raw.msg);
  if (bytes === null) {
    return { message: null, problem: raw.hashState === null ? 'task hash missing' : 'task hash has no msg field' };
  }
  try {
    const message = decodeTaskMessage(bytes);
    if (message.id !== raw.id) {
      return { message: null, problem: `msg is not a valid TaskMessage: it holds task ID ${JSON.stringify(message.id)}` };
    }
    const state = asText(raw.hashState);
    if (state !== null && !isTaskState(state)) {
      return { message, problem: `task hash has unknown state ${JSON.stringify(state)}` };
    }
    return { message, problem: null };
  } catch (err) {
    if (err instanceof CodecError) return { message: null, problem: `msg is ${err.message}` };
    throw err;
  }
}

/** Lock details from what the script read; PTTL -2 means the key is gone, -1 no expiry. */
export function toUniqueLock(id: string, key: string, holder: unknown, pttl: unknown): UniqueLock {
  const ms = asNumber(pttl);
  const holderId = asText(holder);
  const ttlSeconds = ms === null || ms === -2 || holderId === null ? null : ms === -1 ? -1 : ms / 1000;
  return { key, ttlSeconds, holderId, ownedByThisTask: holderId === id };
}

export function toTaskInfo(raw: RawTask, nextProcessAt: Date | null, isOrphaned: boolean): TaskInfo {
  const { message, problem } = decode(raw);
  const hashKey = asText(raw.hashUniqueKey);
  const lockKey = message?.uniqueKey || hashKey || '';
  const result = asBytes(raw.result);
  return {
    id: raw.id,
    queue: raw.queue,
    state: raw.state,
    message,
    problem,
    nextProcessAt,
    result: result && result.length > 0 ? result : null,
    isOrphaned,
    // The script read the lock named by the hash's unique_key; a lock named only in the msg
    // (grouped unique tasks) is filled in by the caller.
    uniqueLock: lockKey === '' ? null : toUniqueLock(raw.id, lockKey, lockKey === hashKey ? raw.lockHolder : null, lockKey === hashKey ? raw.lockPttl : null),
    pendingSince: asText(raw.pendingSince),
  };
}

/** asynq's NextProcessAt: now for pending, the zset score for scheduled and retry, else none. */
export function nextProcessAt(state: string, score: number | null, now: Date): Date | null {
  if (state === 'pending') return now;
  if ((state === 'scheduled' || state === 'retry') && score !== null) return new Date(score * 1000);
  return null;
}

/** An active task whose lease score (Unix seconds) has passed: its worker is gone. */
export function isLeaseExpired(state: string, lease: unknown, now: Date): boolean {
  const leaseAt = asNumber(lease);
  return state === 'active' && leaseAt !== null && leaseAt <= now.getTime() / 1000;
}

/** True when the task names a lock the script did not read (its hash has no unique_key). */
export function lockNeedsLookup(raw: RawTask, info: TaskInfo): boolean {
  return info.uniqueLock !== null && asText(raw.hashUniqueKey) !== info.uniqueLock.key;
}
