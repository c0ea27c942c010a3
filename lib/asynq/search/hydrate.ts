/**
 * Reads the matches of a search page in full (result, unique lock, lease), the same way the
 * task detail does: the scan itself only reads msgs, because most tasks it reads never match.
 */
import type { RedisClient } from '../redis-client';
import * as k from '../keys';
import { fillLocks } from '../inspector/locks';
import { lockNeedsLookup, toTaskInfo, type RawTask } from '../inspector/task-row';
import { asArray, asNumber, asText } from '../reply';
import { execPipeline, pipeScript } from '../scripts';
import type { TaskInfo } from '../types';

export interface Match {
  queue: string;
  /** The state the scan found it in (used when its hash is gone by now). */
  state: string;
  id: string;
}

function nextProcessAt(state: string, score: number | null, now: Date): Date | null {
  if (state === 'pending') return now;
  if ((state === 'scheduled' || state === 'retry') && score !== null) return new Date(score * 1000);
  return null;
}

/** One task as read by the get-task script. */
export interface ReadTask {
  info: TaskInfo;
  raw: RawTask;
  /** False when the task hash does not exist. */
  found: boolean;
  /** Its score in its state's zset, if it has one. */
  score: number | null;
}

function toRead(m: Match, reply: unknown, now: Date): ReadTask {
  if (reply === 0 || reply === null || reply === undefined) {
    const raw: RawTask = { ...m, msg: null, hashState: null, result: null, hashUniqueKey: null, lockHolder: null, lockPttl: null, pendingSince: null };
    return { raw, info: toTaskInfo(raw, null, false), found: false, score: null };
  }
  const [msg, hashState, result, ukey, pendingSince, , holder, pttl, zscore, lease, hashType] = asArray(reply, 'getTask');
  // The task's state now; it may have moved since the scan saw it.
  const state = asText(hashState) ?? m.state;
  const raw: RawTask = { id: m.id, queue: m.queue, state, msg, hashState: hashState ?? null, result, hashUniqueKey: ukey, lockHolder: holder, lockPttl: pttl, pendingSince, hashType: asText(hashType) };
  const leaseAt = asNumber(lease);
  const score = asNumber(zscore);
  const orphaned = state === 'active' && leaseAt !== null && leaseAt <= now.getTime() / 1000;
  return { raw, info: toTaskInfo(raw, nextProcessAt(state, score, now), orphaned), found: true, score };
}

/**
 * The given tasks as the task detail reads them, in order. One round trip (a pipeline of
 * get-task scripts, each O(1) plus two ZSCOREs), plus one per queue whose tasks name a lock
 * only in their msg.
 */
export async function readTasks(redis: RedisClient, matches: readonly Match[], now: Date): Promise<ReadTask[]> {
  if (matches.length === 0) return [];
  const replies = await execPipeline(
    redis,
    (p) => {
      for (const m of matches) {
        pipeScript(p, 'getTask', [k.taskKey(m.queue, m.id), k.leaseKey(m.queue)], [m.id, k.queueKeyPrefix(m.queue), k.uniqueKeyPrefix(m.queue)]);
      }
    },
    ['getTask'],
  );
  const out = matches.map((m, i) => {
    const [err, reply] = replies[i] ?? [null, null];
    if (err) throw err;
    return toRead(m, reply, now);
  });
  const needLocks = new Map<string, TaskInfo[]>();
  for (const { raw, info } of out) {
    if (lockNeedsLookup(raw, info)) needLocks.set(info.queue, [...(needLocks.get(info.queue) ?? []), info]);
  }
  for (const [queue, infos] of needLocks) await fillLocks(redis, queue, infos);
  return out;
}

/**
 * Every match as a TaskInfo, in order; see {@link readTasks}. A task deleted since the scan
 * is kept, flagged `task hash missing`.
 */
export async function hydrate(redis: RedisClient, matches: readonly Match[], now: Date): Promise<TaskInfo[]> {
  return (await readTasks(redis, matches, now)).map((r) => r.info);
}
