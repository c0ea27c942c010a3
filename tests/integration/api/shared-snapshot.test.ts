/**
 * Many viewers polling the same view cost Redis one read per interval, and a mutation makes
 * the next read fresh.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedPending } from '@/lib/asynq/testutil/seed';
import { callRoute } from '../../support/call-route';
import { consoleRoutes } from '../../support/console-routes';
import { countCommands } from '../../support/command-counter';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';

const DB = 5;
let redis: Redis;

beforeAll(async () => {
  process.env.REDIS_URL = testRedisUrl(DB);
  process.env.ASYNQLENS_SNAPSHOT_MS = '60000';
  redis = await openTestRedis(DB);
});
afterAll(() => redis.quit());

describe('shared snapshots', () => {
  it('serves 20 concurrent viewers of the queue list with one Redis read', async () => {
    await seedPending(redis, newTaskMessage({ type: 't', queue: 'q' }));
    const { queues, pause } = await consoleRoutes();
    await callRoute(queues.GET, '/api/queues'); // loads the script
    await callRoute(pause.POST, '/api/x', { qname: 'q' }, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

    const { result, commands } = await countCommands(testRedisUrl(DB), DB, () =>
      Promise.all(Array.from({ length: 20 }, () => callRoute(queues.GET, '/api/queues'))),
    );
    expect(result.every((r) => r.status === 200 && r.body.queues[0].paused === true)).toBe(true);
    expect(commands).toEqual(['smembers', 'evalsha_ro']);
  });
});
