/**
 * The archive forecast against asynq's limits on a real Redis, with a fixed clock: below, at
 * and past 9 999 archived tasks, tasks past 90 days, and the forecast equal to what an archive
 * at the same instant then trims.
 */
import { describe, expect, it } from 'vitest';
import { createInspector, keys as k } from '@/lib/asynq';
import { fixedClock } from '@/lib/asynq/clock';
import { archiveCutoff } from '@/lib/asynq/mutations/archive-limits';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedPending } from '@/lib/asynq/testutil/seed';
import { countCommands } from '../../support/command-counter';
import { testRedisUrl, useTestRedis } from '../../support/test-redis';

const redis = await useTestRedis(125);
const NOW = new Date('2026-06-01T12:00:00Z');
const nowSec = NOW.getTime() / 1000;
const inspector = createInspector(redis, { clock: fixedClock(NOW) });

/** `n` archived members scored `score`, plus the queue's registration. */
async function seedArchived(qname: string, n: number, score: number, tag = 'a') {
  const p = redis.pipeline().sadd(k.ALL_QUEUES, qname);
  for (let i = 0; i < n; i++) p.zadd(k.archivedKey(qname), score, `${tag}${i}`);
  await p.exec();
}

async function seedPendingTasks(qname: string, n: number) {
  for (let i = 0; i < n; i++) await seedPending(redis, newTaskMessage({ type: 't', queue: qname }));
}

describe('archive forecast', () => {
  it.each([
    // archived now, adding → deleted by size
    [0, 20, 0],
    [9_979, 20, 0],
    [9_980, 20, 1],
    [9_990, 20, 11],
    [9_999, 1, 1],
    [5_000, 12_000, 7_001],
  ])('with %i archived and %i added, %i go by size', async (archived, adding, bySize) => {
    await seedArchived('q', archived, nowSec - 3600);
    const f = await inspector.archiveForecast('q', adding);
    expect(f).toMatchObject({ queue: 'q', archived, adding, byAge: 0, bySize, deleted: bySize, keep: 9_999, maxAgeDays: 90 });
    expect(f.ofAdded).toBe(Math.max(0, adding - 9_999));
  });

  it('counts tasks archived at or before the 90-day cutoff, and frees their room first', async () => {
    const cutoff = archiveCutoff(NOW);
    expect(cutoff).toBe(Date.UTC(2026, 2, 3, 12) / 1000); // 90 calendar days before June 1st
    await seedArchived('q', 30, cutoff, 'edge');
    await seedArchived('q', 40, cutoff - 86_400, 'old');
    await seedArchived('q', 9_929, cutoff + 1, 'new');
    const f = await inspector.archiveForecast('q', 50);
    expect(f).toMatchObject({ archived: 9_999, byAge: 70, bySize: 0, deleted: 70, cutoff });
    const g = await inspector.archiveForecast('q', 100);
    expect(g).toMatchObject({ byAge: 70, bySize: 30, deleted: 100 });
  });

  it('equals what archiving every pending task then trims', async () => {
    await seedArchived('q', 9_990, archiveCutoff(NOW) + 10);
    await seedArchived('q', 5, archiveCutoff(NOW) - 10, 'old');
    await seedPendingTasks('q', 20);
    const f = await inspector.archiveForecast('q', 20);
    expect(f).toMatchObject({ archived: 9_995, byAge: 5, bySize: 11, deleted: 16 });
    const r = await inspector.bulkAll('q', 'archive', 'pending');
    expect(r).toMatchObject({ succeeded: 20, trimmed: f.deleted });
    expect(await redis.zcard(k.archivedKey('q'))).toBe(9_999);
  });

  it('equals what archiving a selection trims', async () => {
    await seedArchived('q', 9_999, nowSec - 60);
    await seedPendingTasks('q', 3);
    const ids = await redis.lrange(k.pendingKey('q'), 0, -1);
    const f = await inspector.archiveForecast('q', ids.length);
    const r = await inspector.bulkByIds('q', 'archive', 'pending', ids);
    expect(r.trimmed).toBe(f.deleted);
    expect(f.deleted).toBe(3);
  });

  it('refuses an unknown queue and a negative count', async () => {
    await expect(inspector.archiveForecast('nope', 1)).rejects.toMatchObject({ kind: 'queue_not_found' });
    await seedArchived('q', 1, nowSec);
    await expect(inspector.archiveForecast('q', -1)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('costs three O(log N) commands in one round trip', async () => {
    await seedArchived('q', 100, nowSec);
    const { commands } = await countCommands(testRedisUrl(125), 125, () => inspector.archiveForecast('q', 1));
    expect(commands).toEqual(['sismember', 'zcard', 'zcount']);
  });
});
