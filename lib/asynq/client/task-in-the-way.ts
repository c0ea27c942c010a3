/**
 * What an enqueue refusal says about the task in its way (the one holding its ID or its unique
 * lock): its state and, when it is archived, when it was archived and why it failed, so the
 * operator can judge "delete the archived task and enqueue" without opening it first.
 */
import { decodeTaskMessage } from '../codec';
import * as k from '../keys';
import type { RedisClient } from '../redis-client';
import { execPipeline } from '../scripts';

export interface ArchivedInTheWay {
  /** When it was archived (its score in the archived set), ISO-8601; null if not in the set. */
  archivedAt: string | null;
  type: string;
  /** The last error it failed with (asynq's msg.error_msg). */
  lastError: string;
  /** When it last failed, ISO-8601; null when never. */
  lastFailedAt: string | null;
}

export interface TaskInTheWay {
  /** Its state; null when its hash is gone. */
  state: string | null;
  archived: ArchivedInTheWay | null;
}

const isoFromUnix = (s: number): string | null => (Number.isFinite(s) && s > 0 ? new Date(s * 1000).toISOString() : null);

/**
 * Reads task `id` of `qname`: one round trip (HGET state, HGET msg, ZSCORE archived), O(log N).
 * A msg that does not decode leaves type and error blank rather than failing the refusal.
 */
export async function describeTaskInTheWay(redis: RedisClient, qname: string, id: string): Promise<TaskInTheWay> {
  const tk = k.taskKey(qname, id);
  const [[, state], [, msg], [, score]] = (await execPipeline(redis, (p) =>
    p.hget(tk, 'state').hgetBuffer(tk, 'msg').zscore(k.archivedKey(qname), id),
  )) as [[null, string | null], [null, Buffer | null], [null, string | null]];
  if (state !== 'archived') return { state, archived: null };
  const archivedAt = score === null ? null : isoFromUnix(Number(score));
  try {
    const m = msg ? decodeTaskMessage(msg) : null;
    if (m) return { state, archived: { archivedAt, type: m.type, lastError: m.errorMsg, lastFailedAt: isoFromUnix(m.lastFailedAt) } };
  } catch {
    // A corrupt msg: the refusal still names the task, its state and when it was archived.
  }
  return { state, archived: { archivedAt, type: '', lastError: '', lastFailedAt: null } };
}
