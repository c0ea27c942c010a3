/**
 * Redis key names of asynq v0.26, one builder per key, named after asynq's `internal/base`
 * (`PendingKey` → `pendingKey`) so the two files can be read side by side.
 *
 * Every per-queue key starts with `asynq:{<q>}:`; the braces are a Redis Cluster hash tag that
 * puts all keys of one queue in one slot, which is what lets a Lua script touch several of them.
 */
import { createHash } from 'node:crypto';
import type { TaskState } from './states';

/** The set of every queue name that has been enqueued into. */
export const ALL_QUEUES = 'asynq:queues';
/** Zset of server-info keys, scored by expiry (Unix seconds). */
export const ALL_SERVERS = 'asynq:servers';
/** Zset of worker-hash keys, scored by expiry (Unix seconds). */
export const ALL_WORKERS = 'asynq:workers';
/** Zset of scheduler-entry list keys, scored by expiry (Unix seconds). */
export const ALL_SCHEDULERS = 'asynq:schedulers';
/** Pub/Sub channel that carries task IDs to cancel. */
export const CANCEL_CHANNEL = 'asynq:cancel';

/** `asynq:{<q>}:` — the prefix of every key of a queue. */
export const queueKeyPrefix = (qname: string): string => `asynq:{${qname}}:`;
/** `asynq:{<q>}:t:` — prefix of the task hashes of a queue. */
export const taskKeyPrefix = (qname: string): string => `${queueKeyPrefix(qname)}t:`;
/** `asynq:{<q>}:t:<id>` — the task hash (msg, state, pending_since, unique_key, group, result). */
export const taskKey = (qname: string, id: string): string => `${taskKeyPrefix(qname)}${id}`;
/** List of pending task IDs; LPUSH at the head, dequeued from the tail. */
export const pendingKey = (qname: string): string => `${queueKeyPrefix(qname)}pending`;
/** List of task IDs being processed. */
export const activeKey = (qname: string): string => `${queueKeyPrefix(qname)}active`;
/** Zset of scheduled task IDs, scored by process-at time. */
export const scheduledKey = (qname: string): string => `${queueKeyPrefix(qname)}scheduled`;
/** Zset of retry task IDs, scored by retry-at time. */
export const retryKey = (qname: string): string => `${queueKeyPrefix(qname)}retry`;
/** Zset of archived task IDs, scored by archive time. */
export const archivedKey = (qname: string): string => `${queueKeyPrefix(qname)}archived`;
/** Zset of completed task IDs, scored by expiry (completion + retention). */
export const completedKey = (qname: string): string => `${queueKeyPrefix(qname)}completed`;
/** Zset of active task IDs, scored by lease expiry. */
export const leaseKey = (qname: string): string => `${queueKeyPrefix(qname)}lease`;
/** String whose existence means the queue is paused (value: Unix seconds when paused). */
export const pausedKey = (qname: string): string => `${queueKeyPrefix(qname)}paused`;
/** All-time processed counter. */
export const processedTotalKey = (qname: string): string => `${queueKeyPrefix(qname)}processed`;
/** All-time failed counter. */
export const failedTotalKey = (qname: string): string => `${queueKeyPrefix(qname)}failed`;
/** Per-UTC-day processed counter. */
export const processedKey = (qname: string, day: Date): string =>
  `${queueKeyPrefix(qname)}processed:${utcDate(day)}`;
/** Per-UTC-day failed counter. */
export const failedKey = (qname: string, day: Date): string =>
  `${queueKeyPrefix(qname)}failed:${utcDate(day)}`;
/** `asynq:{<q>}:g:` — prefix of the group zsets. */
export const groupKeyPrefix = (qname: string): string => `${queueKeyPrefix(qname)}g:`;
/** Zset of task IDs waiting in one aggregation group, scored by time added. */
export const groupKey = (qname: string, gname: string): string => `${groupKeyPrefix(qname)}${gname}`;
/**
 * The structure holding the IDs of the tasks in `state`: the list (pending, active) or zset
 * named after the state, and for aggregating the zset of `group`. asynq spells the same names
 * in each of its Lua scripts; here every state-to-key mapping goes through this one.
 */
export function stateKey(qname: string, state: TaskState, group = ''): string {
  return state === 'aggregating' ? groupKey(qname, group) : `${queueKeyPrefix(qname)}${state}`;
}
/** Set of the names of groups that have tasks. */
export const allGroups = (qname: string): string => `${queueKeyPrefix(qname)}groups`;
/** Zset of aggregation-set keys, scored by their deadline. */
export const allAggregationSets = (qname: string): string => `${queueKeyPrefix(qname)}aggregation_sets`;
/** `asynq:{<q>}:unique:` — prefix of the uniqueness locks. */
export const uniqueKeyPrefix = (qname: string): string => `${queueKeyPrefix(qname)}unique:`;

/**
 * The uniqueness lock key of a task: queue + type + MD5 (lower-case hex) of the raw payload.
 * A `null` payload (Go nil) gives an empty checksum after the colon; an empty payload hashes
 * to d41d8cd9… — the two are different locks, exactly as in Go.
 */
export function uniqueKey(qname: string, taskType: string, payload: Uint8Array | null): string {
  if (payload === null) return `${uniqueKeyPrefix(qname)}${taskType}:`;
  const checksum = createHash('md5').update(payload).digest('hex');
  return `${uniqueKeyPrefix(qname)}${taskType}:${checksum}`;
}

/** `asynq:servers:{<host>:<pid>:<serverID>}` */
export const serverInfoKey = (host: string, pid: number, serverId: string): string =>
  `asynq:servers:{${host}:${pid}:${serverId}}`;
/** `asynq:workers:{<host>:<pid>:<serverID>}` */
export const workersKey = (host: string, pid: number, serverId: string): string =>
  `asynq:workers:{${host}:${pid}:${serverId}}`;
/** `asynq:schedulers:{<schedulerID>}` */
export const schedulerEntriesKey = (schedulerId: string): string => `asynq:schedulers:{${schedulerId}}`;
/** `asynq:scheduler_history:<entryID>` — zset of enqueue events of one scheduler entry. */
export const schedulerHistoryKey = (entryId: string): string => `asynq:scheduler_history:${entryId}`;

/** YYYY-MM-DD of the UTC calendar day of `t`, as asynq names its daily counters. */
export function utcDate(t: Date): string {
  // Listing 25,000 queues asks for the same day 50,000 times; toISOString costs about 2 µs.
  const ms = t.getTime();
  if (ms !== lastDay.ms) lastDay = { ms, text: t.toISOString().slice(0, 10) };
  return lastDay.text;
}
let lastDay = { ms: NaN, text: '' };
