/**
 * The structures a search reads, in scan order: queues by name, then each chosen state in
 * asynq's order (pending, active, scheduled, retry, archived, completed, aggregating), and
 * for aggregating each group by name.
 */
import { assertQueueSlot, readableQueues } from '../topology';
import type { RedisClient } from '../redis-client';
import { queueNotFound } from '../errors';
import * as k from '../keys';
import { TASK_STATES, type TaskState } from '../states';
import type { ScanPosition } from './cursor';
import { execPipeline } from '../scripts';

export interface Structure {
  queue: string;
  state: TaskState;
  /** Index into TASK_STATES. */
  stateIdx: number;
  /** The group, for aggregating; '' otherwise. */
  group: string;
  key: string;
  kind: 'list' | 'zset';
}

/** Commands per pipeline when sizing many structures. */
const PIPE_CHUNK = 1000;

export const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function structure(queue: string, state: TaskState, group = ''): Structure {
  const stateIdx = TASK_STATES.indexOf(state);
  if (state === 'pending' || state === 'active') {
    return { queue, state, stateIdx, group, kind: 'list', key: state === 'pending' ? k.pendingKey(queue) : k.activeKey(queue) };
  }
  const key = state === 'aggregating' ? k.groupKey(queue, group) : `${k.queueKeyPrefix(queue)}${state}`;
  return { queue, state, stateIdx, group, kind: 'zset', key };
}

/**
 * The queues to search, sorted by name: the given ones (each must exist when `mustExist`,
 * else queue_not_found), or every queue in asynq:queues. One round trip.
 */
export async function resolveQueues(redis: RedisClient, given: readonly string[] | undefined, mustExist: boolean): Promise<string[]> {
  if (!given || given.length === 0) return readableQueues(redis, await redis.smembers(k.ALL_QUEUES)).sort(byName);
  const queues = [...new Set(given)].sort(byName);
  for (const q of queues) assertQueueSlot(redis, 'searchTasks', q);
  if (mustExist) {
    const replies = await execPipeline(redis, (p) => {
      for (const q of queues) p.sismember(k.ALL_QUEUES, q);
    });
    const missing = queues.find((_, i) => replies[i]?.[1] !== 1);
    if (missing !== undefined) throw queueNotFound('searchTasks', missing);
  }
  return queues;
}

/**
 * The group names of a queue, sorted. SSCAN rather than SMEMBERS: a queue may have hundreds
 * of thousands of groups, and each SSCAN call stays short. One round trip per 1,000 groups.
 */
export async function groupNames(redis: RedisClient, queue: string): Promise<string[]> {
  const names = new Set<string>();
  let cursor = '0';
  do {
    const [next, batch] = await redis.sscan(k.allGroups(queue), cursor, 'COUNT', 1000);
    for (const g of batch) names.add(g);
    cursor = next;
  } while (cursor !== '0');
  return [...names].sort(byName);
}

/**
 * Sizes of the structures (LLEN / ZCARD), in order; an aggregating placeholder (see
 * {@link slotsFrom}) counts its queue's groups (SCARD). One round trip per 1,000.
 */
export async function sizesOf(redis: RedisClient, structures: readonly Structure[]): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < structures.length; i += PIPE_CHUNK) {
    const replies = await execPipeline(redis, (p) => {
      for (const s of structures.slice(i, i + PIPE_CHUNK)) {
        if (s.kind === 'list') p.llen(s.key);
        else if (s.state === 'aggregating' && s.group === '') p.scard(k.allGroups(s.queue));
        else p.zcard(s.key);
      }
    });
    for (const [, n] of replies) out.push(typeof n === 'number' ? n : 0);
  }
  return out;
}

/**
 * Tasks in the chosen structures right now: the `total` a search reports. Round trips: one
 * per 1,000 structures, plus, for queues that have groups, their listing and sizing.
 */
export async function countTasks(redis: RedisClient, queues: readonly string[], states: readonly TaskState[]): Promise<number> {
  const slots = slotsFrom(queues, states, null);
  const sizes = await sizesOf(redis, slots);
  const groups: Structure[] = [];
  let total = 0;
  for (const [i, slot] of slots.entries()) {
    if (slot.state !== 'aggregating') total += sizes[i] ?? 0;
    else if ((sizes[i] ?? 0) > 0) for (const g of await groupNames(redis, slot.queue)) groups.push(structure(slot.queue, 'aggregating', g));
  }
  return total + (await sizesOf(redis, groups)).reduce((a, b) => a + b, 0);
}

/** Where a structure stands relative to a position: before it, at it, or after it. */
function compare(s: Structure, p: ScanPosition): number {
  return byName(s.queue, p.queue) || s.stateIdx - p.state || byName(s.group, p.group);
}

/**
 * The (queue, state) slots at or after `from`, in scan order. Aggregating is a placeholder
 * (group '') standing for all of a queue's groups, which are listed only when reached.
 */
function slotsFrom(queues: readonly string[], states: readonly TaskState[], from: ScanPosition | null): Structure[] {
  const ordered = [...states].sort((a, b) => TASK_STATES.indexOf(a) - TASK_STATES.indexOf(b));
  const slots: Structure[] = [];
  for (const queue of queues) {
    for (const st of ordered) {
      const s = structure(queue, st);
      const passed = st === 'aggregating' ? byName(queue, from?.queue ?? '') < 0 : from !== null && compare(s, from) < 0;
      if (!passed) slots.push(s);
    }
  }
  return slots;
}

/**
 * The structures from `from` on (all of them when null), each with the offset to start at:
 * `from.offset` for the structure the position names, 0 for later ones. Empty ones are
 * skipped (their sizes come first, one round trip per 1,000 structures). Groups are listed
 * only when the scan reaches a queue's aggregating state, so a request that stops early never
 * pays for a queue's many groups.
 */
export async function* structuresFrom(
  redis: RedisClient,
  queues: readonly string[],
  states: readonly TaskState[],
  from: ScanPosition | null,
): AsyncGenerator<{ structure: Structure; offset: number }> {
  const slots = slotsFrom(queues, states, from);
  const sizes = await sizesOf(redis, slots);
  for (const [i, slot] of slots.entries()) {
    if ((sizes[i] ?? 0) === 0) continue;
    const found = slot.state === 'aggregating' ? (await groupNames(redis, slot.queue)).map((g) => structure(slot.queue, 'aggregating', g)) : [slot];
    for (const s of found) {
      const at = from ? compare(s, from) : 1;
      if (at < 0) continue;
      yield { structure: s, offset: at === 0 ? (from?.offset ?? 0) : 0 };
    }
  }
}
