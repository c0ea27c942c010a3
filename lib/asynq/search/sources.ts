/**
 * The structures a search reads, in scan order: queues by name, then each chosen state in
 * asynq's order (pending, active, scheduled, retry, archived, completed, aggregating), and
 * for aggregating each group by name. Listing and sizing are task-source/structures.ts's; what
 * is the search's own is the order and resuming from a position.
 */
import type { RedisClient } from '../redis-client';
import { byName } from '../compare';
import { stateIndex, type TaskState } from '../states';
import { groupNames, sizeStructures, structureOf, type Structure } from '../task-source/structures';
import type { ScanPosition } from './cursor';

/**
 * Tasks in the chosen structures right now: the `total` a search reports. Round trips: one
 * per 1,000 structures, plus, for queues that have groups, their listing and sizing.
 */
export async function countTasks(redis: RedisClient, queues: readonly string[], states: readonly TaskState[]): Promise<number> {
  const slots = slotsFrom(queues, states, null);
  const sizes = await sizeStructures(redis, slots);
  const groups: Structure[] = [];
  let total = 0;
  for (const [i, slot] of slots.entries()) {
    if (slot.state !== 'aggregating') total += sizes[i] ?? 0;
    else if ((sizes[i] ?? 0) > 0) for (const g of await groupNames(redis, slot.queue)) groups.push(structureOf(slot.queue, 'aggregating', g));
  }
  return total + (await sizeStructures(redis, groups)).reduce((a, b) => a + b, 0);
}

/** Where a structure stands relative to a position: before it, at it, or after it. */
function compare(s: Structure, p: ScanPosition): number {
  return byName(s.queue, p.queue) || stateIndex(s.state) - p.state || byName(s.group, p.group);
}

/**
 * The (queue, state) slots at or after `from`, in scan order. Aggregating is a placeholder
 * (group '') standing for all of a queue's groups, which are listed only when reached.
 */
function slotsFrom(queues: readonly string[], states: readonly TaskState[], from: ScanPosition | null): Structure[] {
  const ordered = [...states].sort((a, b) => stateIndex(a) - stateIndex(b));
  const slots: Structure[] = [];
  for (const queue of queues) {
    for (const st of ordered) {
      const s = structureOf(queue, st);
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
  const sizes = await sizeStructures(redis, slots);
  for (const [i, slot] of slots.entries()) {
    if ((sizes[i] ?? 0) === 0) continue;
    const found = slot.state === 'aggregating' ? (await groupNames(redis, slot.queue)).map((g) => structureOf(slot.queue, 'aggregating', g)) : [slot];
    for (const s of found) {
      const at = from ? compare(s, from) : 1;
      if (at < 0) continue;
      yield { structure: s, offset: at === 0 ? (from?.offset ?? 0) : 0 };
    }
  }
}
