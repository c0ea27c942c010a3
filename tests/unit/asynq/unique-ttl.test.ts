import { describe, expect, it } from 'vitest';
import { uniqueTtlFromLock } from '@/lib/asynq/client/unique-ttl';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import type { TaskInfo } from '@/lib/asynq/types';

const NOW = new Date('2026-11-30T03:00:00Z');
const ns = (d: Date) => `${d.getTime()}000000`;

function task(over: Partial<TaskInfo>): TaskInfo {
  const message = newTaskMessage({ type: 't', queue: 'q' });
  return {
    id: message.id, queue: 'q', state: 'pending', message, problem: null, nextProcessAt: null, result: null, isOrphaned: false,
    uniqueLock: { key: 'asynq:{q}:unique:t:', ttlSeconds: 3000, holderId: message.id, ownedByThisTask: true }, pendingSince: null,
    ...over,
  };
}
const lock = (ttlSeconds: number | null, ownedByThisTask = true) => ({ key: 'k', ttlSeconds, holderId: ownedByThisTask ? 'me' : 'other', ownedByThisTask });

describe('uniqueTtlFromLock: the TTL asynq does not store, from the lock it fixed', () => {
  it('pending since its enqueue: lock end − pending_since', () => {
    // Enqueued 10 minutes ago with Unique(1h): 50 minutes left.
    expect(uniqueTtlFromLock(task({ pendingSince: ns(new Date(NOW.getTime() - 600_000)), uniqueLock: lock(3000) }), NOW)).toBe(3600);
    // Unique(90s), 20 s ago: whole seconds when not near a minute.
    expect(uniqueTtlFromLock(task({ pendingSince: ns(new Date(NOW.getTime() - 20_000)), uniqueLock: lock(70) }), NOW)).toBe(90);
  });

  it('scheduled: lock end − process time, as asynq’s client fixed it (a second short, snapped to the minute)', () => {
    const processAt = new Date(NOW.getTime() + 7200_000);
    // Unique(1h) scheduled 2h ahead: asynq's lock is 3h minus its truncated second.
    expect(uniqueTtlFromLock(task({ state: 'scheduled', nextProcessAt: processAt, uniqueLock: lock(10_799) }), NOW)).toBe(3600);
  });

  it('a pending task the forwarder moved a few seconds after its process time still reads its TTL', () => {
    const since = new Date(NOW.getTime() - 60_000);
    // Process time 4 s before pending_since, Unique(10m): the lock ends at since − 4 s + 600 s.
    expect(uniqueTtlFromLock(task({ pendingSince: ns(since), uniqueLock: lock(536) }), NOW)).toBe(600);
  });

  it('null when the lock cannot tell', () => {
    const since = ns(new Date(NOW.getTime() - 1000));
    expect(uniqueTtlFromLock(task({ pendingSince: since, uniqueLock: null }), NOW)).toBeNull();
    expect(uniqueTtlFromLock(task({ pendingSince: since, uniqueLock: lock(100, false) }), NOW)).toBeNull();
    expect(uniqueTtlFromLock(task({ pendingSince: since, uniqueLock: lock(null) }), NOW)).toBeNull();
    expect(uniqueTtlFromLock(task({ pendingSince: since, uniqueLock: lock(-1) }), NOW)).toBeNull();
    for (const state of ['active', 'retry', 'archived', 'completed', 'aggregating']) {
      expect(uniqueTtlFromLock(task({ state, pendingSince: since, nextProcessAt: NOW, uniqueLock: lock(100) }), NOW), state).toBeNull();
    }
    const retried = task({ pendingSince: since, uniqueLock: lock(100) });
    retried.message!.retried = 1;
    expect(uniqueTtlFromLock(retried, NOW)).toBeNull();
  });
});
