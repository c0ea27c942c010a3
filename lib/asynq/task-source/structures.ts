/**
 * Where the tasks of a queue's states live: one Redis structure per state (a list for pending
 * and active, a zset named after the state for the others) and, for aggregating, one zset per
 * group. Every scan (search, duplicates, failure triage, the type census, re-runs) lists and
 * sizes what it reads here.
 */
import type { RedisClient } from '../redis-client';
import { byName } from '../compare';
import * as k from '../keys';
import { execPipeline } from '../scripts';
import { isListState, type TaskState } from '../states';

/** One Redis structure holding task IDs. */
export interface Structure {
  queue: string;
  state: TaskState;
  /** The group, for aggregating; '' otherwise. */
  group: string;
  key: string;
  kind: 'list' | 'zset';
}

/** Commands per pipeline when sizing many structures: each is O(1), 1,000 stay well under 1 ms. */
const PIPE_CHUNK = 1000;

export function structureOf(queue: string, state: TaskState, group = ''): Structure {
  return { queue, state, group, key: k.stateKey(queue, state, group), kind: isListState(state) ? 'list' : 'zset' };
}

/**
 * The group names of a queue, sorted, each once (SSCAN may return a name twice). SSCAN rather
 * than SMEMBERS: a queue may have hundreds of thousands of groups, and each SSCAN call stays
 * short. One round trip per 1,000 groups.
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
 * The structures of `states` in `queue`, in the order given, an aggregating state giving one
 * per group (by name). Round trips: one per 1,000 groups of the aggregating state, else none.
 * A group registry of the wrong type gives no group and is handed to `onUnreadable`.
 */
export async function listStructures(
  redis: RedisClient,
  queue: string,
  states: readonly TaskState[],
  onUnreadable?: (s: Structure) => void,
): Promise<Structure[]> {
  const out: Structure[] = [];
  for (const state of states) {
    if (state !== 'aggregating') {
      out.push(structureOf(queue, state));
      continue;
    }
    try {
      for (const g of await groupNames(redis, queue)) out.push(structureOf(queue, state, g));
    } catch (err) {
      // The group registry holds another type than a set: no group can be listed, the scan
      // goes on without them and names the registry.
      if (!(err instanceof Error && /^WRONGTYPE/.test(err.message))) throw err;
      onUnreadable?.({ ...structureOf(queue, state), key: k.allGroups(queue) });
    }
  }
  return out;
}

/**
 * The number of IDs in each structure, in order (LLEN / ZCARD). An aggregating structure with
 * no group stands for all of its queue's groups and counts them (SCARD), so a scan can size a
 * queue's states before it pays for listing the groups. One round trip per 1,000 structures.
 * A structure whose key holds another type than asynq writes counts 0 and is handed to
 * `onUnreadable`, so a scan can pass over it by name instead of reading it as something else.
 */
export async function sizeStructures(
  redis: RedisClient,
  structures: readonly Structure[],
  onUnreadable?: (s: Structure) => void,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < structures.length; i += PIPE_CHUNK) {
    const replies = await execPipeline(redis, (p) => {
      for (const s of structures.slice(i, i + PIPE_CHUNK)) {
        if (s.kind === 'list') p.llen(s.key);
        else if (s.state === 'aggregating' && s.group === '') p.scard(k.allGroups(s.queue));
        else p.zcard(s.key);
      }
    });
    replies.forEach(([err, n], j) => {
      // WRONGTYPE: the key holds another type than asynq writes there (see onUnreadable).
      if (err && /^WRONGTYPE/.test(err.message)) onUnreadable?.(structures[i + j]!);
      out.push(typeof n === 'number' ? n : 0);
    });
  }
  return out;
}
