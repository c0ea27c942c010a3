/**
 * What an enqueue refusal says about the task in its way (the one holding its ID or its unique
 * lock): its state and, when it is archived, when it was archived and why it failed, so the
 * operator can judge "delete the archived task and enqueue" without opening it first.
 */
import * as k from '../keys';
import type { RedisClient } from '../redis-client';
import { execPipeline } from '../scripts';
import { readTaskMsg } from '../task-msg-view';

export interface ArchivedInTheWay {
  /** When it was archived (its score in the archived set), ISO-8601; null if not in the set. */
  archivedAt: string | null;
  /** '' when its msg was not read (larger than {@link MSG_READ_LIMIT}) or does not parse. */
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

/** A refusal reads the msg of the task in its way only up to this size: it must stay cheap. */
const MSG_READ_LIMIT = 1024 * 1024;

const isoFromUnix = (s: number): string | null => (Number.isFinite(s) && s > 0 ? new Date(s * 1000).toISOString() : null);

/**
 * Reads task `id` of `qname`: one round trip (HGET state, HSTRLEN msg, ZSCORE archived, all
 * O(1) or O(log N)), and one more (HGET msg) when it is archived and its msg is at most 1 MiB.
 * A msg that does not parse leaves type and error blank rather than failing the refusal.
 */
export async function describeTaskInTheWay(redis: RedisClient, qname: string, id: string): Promise<TaskInTheWay> {
  const tk = k.taskKey(qname, id);
  const [[, state], [, size], [, score]] = (await execPipeline(redis, (p) =>
    p.hget(tk, 'state').hstrlen(tk, 'msg').zscore(k.archivedKey(qname), id),
  )) as [[null, string | null], [null, number], [null, string | null]];
  if (state !== 'archived') return { state, archived: null };
  const archived: ArchivedInTheWay = { archivedAt: score === null ? null : isoFromUnix(Number(score)), type: '', lastError: '', lastFailedAt: null };
  const msg = size > 0 && size <= MSG_READ_LIMIT ? await redis.hgetBuffer(tk, 'msg') : null;
  const view = msg ? readTaskMsg(msg) : null;
  if (view) Object.assign(archived, { type: view.typeText, lastError: view.errorText, lastFailedAt: isoFromUnix(view.lastFailedAt) });
  return { state, archived };
}
