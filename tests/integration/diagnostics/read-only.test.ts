/**
 * ASYNQLENS_READ_ONLY=1: releasing a lock and resolving duplicates answer 403 read_only and
 * change nothing, while listing locks and scanning for duplicates (reads) still work.
 */
import { describe, expect, it } from 'vitest';
import { keys as k } from '@/lib/asynq';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedLock, seedPending } from '@/lib/asynq/testutil/seed';
import { callRoute } from '../../support/call-route';
import { consoleRoutes } from '../../support/console-routes';
import { snapshot } from '../../support/redis-snapshot';
import { useReadOnlyRoutes } from '../../support/test-redis';

const DB = 54;
const redis = await useReadOnlyRoutes(DB);

describe('diagnostics in read-only mode', () => {
  it('refuses the two mutations and serves the reads', async () => {
    const m = newTaskMessage({ type: 't', queue: 'q' });
    await seedPending(redis, m);
    const key = k.uniqueKey('q', 't', null);
    await seedLock(redis, key, 'gone', 100);
    const before = await snapshot(redis);
    const { locks, resolve, duplicates: dups } = await consoleRoutes();
    const rel = await callRoute(locks.DELETE, `/api/queues/q/locks?key=${encodeURIComponent(key)}`, { qname: 'q' }, { method: 'DELETE' });
    const res = await callRoute(resolve.POST, '/api/queues/q/duplicates/resolve', { qname: 'q' }, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ taskIds: [m.id] }),
    });
    for (const r of [rel, res]) {
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('read_only');
    }
    expect(await snapshot(redis)).toEqual(before);
    expect((await callRoute(locks.GET, '/api/queues/q/locks', { qname: 'q' })).body.locks).toHaveLength(1);
    const scan = await callRoute(dups.GET, '/api/queues/q/duplicates', { qname: 'q' });
    expect(scan.status).toBe(200);
    expect(await callRoute(dups.DELETE, '/api/queues/q/duplicates', { qname: 'q' }, { method: 'DELETE' })).toMatchObject({ status: 204 });
  });
});
