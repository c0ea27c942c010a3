/**
 * Many viewers polling the same view cost Redis one read per interval, and a mutation makes
 * the next read fresh.
 */
import { describe, expect, it } from 'vitest';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedPending } from '@/lib/asynq/testutil/seed';
import { callRoute } from '../../support/call-route';
import { useConsoleRoutes } from '../../support/console-routes';
import { countCommands } from '../../support/command-counter';
import { testRedisUrl } from '../../support/test-redis';

const DB = 5;
const { redis, routes } = await useConsoleRoutes(DB, { env: { ASYNQLENS_SNAPSHOT_MS: '60000' }, flushEach: false });

describe('shared snapshots', () => {
  it('serves 20 concurrent viewers of the queue list with one Redis read', async () => {
    await seedPending(redis, newTaskMessage({ type: 't', queue: 'q' }));
    const { queues, pause } = routes;
    await callRoute(queues.GET, '/api/queues'); // loads the script
    await callRoute(pause.POST, '/api/x', { qname: 'q' }, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

    const { result, commands } = await countCommands(testRedisUrl(DB), DB, () =>
      Promise.all(Array.from({ length: 20 }, () => callRoute(queues.GET, '/api/queues'))),
    );
    expect(result.every((r) => r.status === 200 && r.body.queues[0].paused === true)).toBe(true);
    expect(commands).toEqual(['sscan', 'evalsha_ro']);
  });
});
