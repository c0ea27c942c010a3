/**
 * The starting state for the state-diff tests: fixed task IDs, payloads, scores and times, so
 * that seeding two databases gives byte-identical Redis contents (checked before every case).
 * Written with lib/asynq/testutil/seed.ts, which leaves keys exactly as asynq's scripts do.
 *
 * Queue `q` has a task in every state, unique tasks whose lock they still own in each state,
 * a completed task whose lock key is held by someone else, two groups (one with a grouped
 * unique task, whose hash has no unique_key, as AddToGroupUnique leaves it) and counters.
 * Queue `e` holds only completed and aggregating tasks (asynq counts it as empty).
 * Queue `f` has no active task (a forced delete succeeds) and unique tasks that own locks.
 */
import type { Redis } from 'ioredis';
import * as k from '@/lib/asynq/keys';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedActive, seedAggregating, seedLock, seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import type { TaskMessage } from '@/lib/asynq/types';
import { encodeTaskMessage } from '@/lib/asynq/codec';

export const Q = 'q';
export const EMPTYISH = 'e';
export const NO_ACTIVE = 'f';

/** One fixed "now" for the whole file: every seeded score and time derives from it. */
export const T0 = Math.floor(Date.now() / 1000);
const DAY = 86_400;

/** Binary on purpose for some tasks: payload bytes must survive untouched. */
function payloadOf(id: string): Buffer {
  return id.startsWith('s1') || id.startsWith('x1') ? Buffer.from([0x00, 0xff, 0x80, ...Buffer.from(id)]) : Buffer.from(`payload-${id}`);
}

function msg(id: string, queue: string, over: Partial<TaskMessage> = {}, unique = false): TaskMessage {
  const type = `type:${id.replace(/\d+$/, '')}`;
  const payload = payloadOf(id);
  return newTaskMessage({
    id,
    queue,
    type,
    payload,
    uniqueKey: unique ? k.uniqueKey(queue, type, payload) : '',
    headers: { origin: 'fixture' },
    ...over,
  });
}

/** The unique lock key of a fixture task (whether or not it is unique). */
export function lockOf(id: string, queue = Q): string {
  return msg(id, queue, {}, true).uniqueKey;
}

const LOCK_TTL = 3600;

export async function seedFixture(redis: Redis): Promise<void> {
  await redis.flushdb();
  const pendingSince = BigInt(T0 - 50) * 1_000_000_000n;

  // --- queue q ---------------------------------------------------------------------------
  await seedPending(redis, msg('p1', Q), pendingSince);
  const p2 = msg('p2', Q, {}, true);
  await seedPending(redis, p2, pendingSince + 1n);
  await seedLock(redis, p2.uniqueKey, 'p2', LOCK_TTL);
  await seedPending(redis, msg('p3', Q), pendingSince + 2n);

  await seedActive(redis, msg('a1', Q), T0 + 30);

  await seedZset(redis, 'scheduled', msg('s1', Q), T0 + 3600);
  const s2 = msg('s2', Q, {}, true);
  await seedZset(redis, 'scheduled', s2, T0 + 3600);
  await seedLock(redis, s2.uniqueKey, 's2', LOCK_TTL);
  await seedZset(redis, 'scheduled', msg('s3', Q), T0 + 7200);

  await seedZset(redis, 'retry', msg('r1', Q, { retried: 1, errorMsg: 'boom', lastFailedAt: T0 - 20 }), T0 + 600);
  const r2 = msg('r2', Q, { retried: 2, errorMsg: 'boom', lastFailedAt: T0 - 10 }, true);
  await seedZset(redis, 'retry', r2, T0 + 700);
  await seedLock(redis, r2.uniqueKey, 'r2', LOCK_TTL);

  await seedZset(redis, 'archived', msg('x1', Q, { retried: 25, errorMsg: 'gave up', lastFailedAt: T0 - 100 }), T0 - 100);
  const x2 = msg('x2', Q, { retried: 25, errorMsg: 'gave up', lastFailedAt: T0 - 90 }, true);
  await seedZset(redis, 'archived', x2, T0 - 90);
  await seedLock(redis, x2.uniqueKey, 'x2', LOCK_TTL);

  await seedZset(redis, 'completed', msg('c1', Q, { retention: 3600, completedAt: T0 - 5 }), T0 + 3595);
  await redis.hset(k.taskKey(Q, 'c1'), 'result', Buffer.from('result-c1'));
  // A completed unique task whose lock has since been taken by another task: never ours to free.
  const c2 = msg('c2', Q, { retention: 3600, completedAt: T0 - 4 }, true);
  await seedZset(redis, 'completed', c2, T0 + 3596);
  await seedLock(redis, c2.uniqueKey, 'someone-else', LOCK_TTL);

  await seedAggregating(redis, msg('g1a', Q, { groupKey: 'g1' }), T0 - 30);
  // Grouped unique: the lock is only named in the msg (AddToGroupUnique writes no unique_key).
  const g1b = msg('g1b', Q, { groupKey: 'g1' }, true);
  await seedAggregating(redis, g1b, T0 - 29);
  await seedLock(redis, g1b.uniqueKey, 'g1b', LOCK_TTL);
  await seedAggregating(redis, msg('g1c', Q, { groupKey: 'g1' }), T0 - 28);
  await seedAggregating(redis, msg('g2a', Q, { groupKey: 'g2' }), T0 - 27);

  await redis.set(k.processedTotalKey(Q), '10');
  await redis.set(k.failedTotalKey(Q), '3');

  // --- queue e: only completed and aggregating tasks ------------------------------------------
  await seedZset(redis, 'completed', msg('e1', EMPTYISH, { retention: 60, completedAt: T0 - 5 }), T0 + 55);
  await seedAggregating(redis, msg('e2', EMPTYISH, { groupKey: 'ge' }), T0 - 30);

  // --- queue f: no active task ---------------------------------------------------------------
  const f1 = msg('f1', NO_ACTIVE, {}, true);
  await seedPending(redis, f1, pendingSince);
  await seedLock(redis, f1.uniqueKey, 'f1', LOCK_TTL);
  await seedZset(redis, 'scheduled', msg('f2', NO_ACTIVE), T0 + 3600);
  await seedZset(redis, 'retry', msg('f3', NO_ACTIVE, { retried: 1 }), T0 + 600);
  const f4 = msg('f4', NO_ACTIVE, { retried: 25 }, true);
  await seedZset(redis, 'archived', f4, T0 - 100);
  await seedLock(redis, f4.uniqueKey, 'f4', LOCK_TTL);
}

/** An archived task older than asynq's 90-day limit: the next archive operation trims it. */
export async function seedAncientArchived(redis: Redis): Promise<void> {
  await seedZset(redis, 'archived', msg('x9', Q, { retried: 25, errorMsg: 'ancient' }), T0 - 91 * DAY);
}

/**
 * `count` more archived tasks of queue q in one pipeline (ID `<prefix><i>`, scored
 * `score(i)`), each with its hash as asynq's archive leaves it: an archive with a lot to trim.
 */
export function seedManyArchived(prefix: string, count: number, score: (i: number) => number) {
  return async (redis: Redis): Promise<void> => {
    const p = redis.pipeline();
    for (let i = 0; i < count; i++) {
      const m = msg(`${prefix}${i}`, Q, { retried: 25, errorMsg: 'gave up', lastFailedAt: score(i) });
      p.hset(k.taskKey(Q, m.id), 'msg', Buffer.from(encodeTaskMessage(m)), 'state', 'archived');
      p.zadd(k.archivedKey(Q), score(i), m.id);
    }
    await p.exec();
  };
}

/** 700 archived tasks older than asynq's 90 days: asynq's next archive drops every one. */
export const ANCIENT_700 = { prefix: 'old', count: 700, score: (i: number) => T0 - 91 * DAY - i };
/**
 * An archive of 10 600 recent tasks (beside the fixture's x1 and x2), already past asynq's
 * 9 999 as another writer can leave it: asynq's next archive brings it back to 9 999 by
 * dropping the lowest-scored, these in order of i.
 */
export const OVERFULL_10600 = { prefix: 'big', count: 10_600, score: (i: number) => T0 - 80 * DAY + i };

/** Marks queue q paused since T0 - 60 (for resume). */
export async function seedPaused(redis: Redis): Promise<void> {
  await redis.set(k.pausedKey(Q), String(T0 - 60));
}
