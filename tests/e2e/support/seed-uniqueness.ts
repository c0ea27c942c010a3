/**
 * The unique-lock and duplicate scenarios of issue 6, for the Locks tab, the Uniqueness page
 * and the Duplicates page: one lock per finding (plus a healthy one) in LOCKS_QUEUE, and exact
 * and near duplicates in DUPS_QUEUE, one group larger than a scan's default 20 samples.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import * as k from '../../../lib/asynq/keys';
import type { TaskMessage } from '../../../lib/asynq/types';
import { json, newTaskMessage } from '../../../lib/asynq/testutil/factories';
import { seedLock, seedPending, seedZset } from '../../../lib/asynq/testutil/seed';

export const LOCKS_QUEUE = 'e2e-locks';
export const DUPS_QUEUE = 'e2e-dups';

export interface UniquenessSeed {
  /** An archived task that still holds its lock (finding held_by_archived). */
  archivedHolderId: string;
  archivedLockKey: string;
  /** A lock whose holder's hash is gone (orphaned). */
  orphanLockKey: string;
  orphanHolderId: string;
  /** Duplicate groups, each listed oldest first (the one "keep one" keeps). */
  dups: { welcome: string[]; receipt: string[]; ping: string[]; report: string[]; singles: string[] };
}

const uniqueTask = (type: string, payload: unknown, over: Partial<TaskMessage> = {}) => {
  const bytes = json(payload);
  return newTaskMessage({ type, queue: LOCKS_QUEUE, payload: bytes, uniqueKey: k.uniqueKey(LOCKS_QUEUE, type, bytes), ...over });
};

async function seedLocks(redis: Redis, now: number) {
  const archived = uniqueTask('invoice:send', { invoice: 1042 }, { retried: 25, errorMsg: 'SMTP 550: mailbox unavailable', lastFailedAt: now - 600 });
  await seedZset(redis, 'archived', archived, now - 600);
  await seedLock(redis, archived.uniqueKey, archived.id, 2 * 3600);

  const orphanKey = k.uniqueKey(LOCKS_QUEUE, 'cache:warm', json({ shard: 3 }));
  const orphanHolderId = randomUUID();
  await seedLock(redis, orphanKey, orphanHolderId, 45 * 60);

  const completed = uniqueTask('report:monthly', { month: '2026-10' }, { completedAt: now - 120, retention: 86_400 });
  await seedZset(redis, 'completed', completed, now + 86_400);
  await seedLock(redis, completed.uniqueKey, completed.id, 30 * 60);

  // Next attempt in 20 min, lock gone in 10: a duplicate can slip in while this one waits.
  const retry = uniqueTask('payment:capture', { order: 981 }, { retried: 3, retry: 10, errorMsg: 'gateway timeout', lastFailedAt: now - 60 });
  await seedZset(redis, 'retry', retry, now + 1200);
  await seedLock(redis, retry.uniqueKey, retry.id, 600);

  const forever = uniqueTask('user:sync', { user: 55 });
  await seedPending(redis, forever);
  await seedLock(redis, forever.uniqueKey, forever.id);

  const healthy = uniqueTask('digest:weekly', { team: 'core' });
  await seedZset(redis, 'scheduled', healthy, now + 3600);
  await seedLock(redis, healthy.uniqueKey, healthy.id, 3600);

  return { archivedHolderId: archived.id, archivedLockKey: archived.uniqueKey, orphanLockKey: orphanKey, orphanHolderId };
}

async function seedDuplicates(redis: Redis, now: number): Promise<UniquenessSeed['dups']> {
  const add = async (type: string, payload: unknown, state: 'pending' | 'retry' = 'pending', i = 0) => {
    const m = newTaskMessage({ type, queue: DUPS_QUEUE, payload: json(payload) });
    if (state === 'pending') await seedPending(redis, m);
    else await seedZset(redis, 'retry', { ...m, retried: 1, errorMsg: 'timeout' }, now + 300 + i);
    return m.id;
  };
  const welcome: string[] = [];
  for (let i = 0; i < 4; i++) welcome.push(await add('email:send', { to: 'ana@example.com', template: 'welcome' }));
  const receipt = [await add('email:send', { to: 'bo@example.com', template: 'receipt' })];
  receipt.push(await add('email:send', { to: 'bo@example.com', template: 'receipt' }));
  receipt.push(await add('email:send', { to: 'bo@example.com', template: 'receipt' }, 'retry'));
  // More than a scan's default 20 samples: "keep one" must ask for every ID first.
  const ping: string[] = [];
  for (let i = 0; i < 25; i++) ping.push(await add('webhook:ping', { endpoint: 'https://hooks.example.com/ping' }));
  // The same request three times, each stamped with its enqueue time: not canonical.
  const report: string[] = [];
  for (let i = 0; i < 3; i++) {
    report.push(await add('report:build', { user: 7, kind: 'usage', requestedAt: new Date((now - 300 + i * 60) * 1000).toISOString() }));
  }
  const singles = [await add('email:send', { to: 'cy@example.com', template: 'welcome' }), await add('report:build', { user: 8, kind: 'usage' })];
  return { welcome, receipt, ping, report, singles };
}

export async function seedUniqueness(redis: Redis): Promise<UniquenessSeed> {
  const now = Math.floor(Date.now() / 1000);
  const locks = await seedLocks(redis, now);
  return { ...locks, dups: await seedDuplicates(redis, now) };
}
