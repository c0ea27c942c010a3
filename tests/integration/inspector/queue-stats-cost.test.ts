/**
 * What listing the queues costs Redis: two commands (SSCAN and one stats script) while the
 * queues fit in one call — always up to MIN_CHUNK of them — whatever the number of
 * aggregation groups, and never MEMORY USAGE inside a script (it is O(N) in the size of what
 * it samples and can stall a busy Redis). Thousands of queues: queue-stats-chunks.test.ts.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createInspector, keys as k } from '@/lib/asynq';
import { countCommands } from '../../support/command-counter';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedAggregating, seedPending } from '@/lib/asynq/testutil/seed';
import { MIN_CHUNK } from '@/lib/asynq/inspector/queue-stats-chunks';

const DB = 2;
let redis: Redis;

beforeAll(async () => {
  redis = await openTestRedis(DB);
});
afterAll(() => redis.quit());
beforeEach(() => redis.flushdb());

async function measure() {
  const inspector = createInspector(redis);
  await inspector.queues(); // load the script once, as a running server would have
  return countCommands(testRedisUrl(DB), DB, () => inspector.queues());
}

describe('listing queue stats', () => {
  it.each([1, MIN_CHUNK])('costs 2 commands with %i queues', async (n) => {
    for (let i = 0; i < n; i++) await seedPending(redis, newTaskMessage({ type: 't', queue: `q${i}` }));
    const { result, commands, scriptCommands } = await measure();
    expect(result).toHaveLength(n);
    expect(commands).toEqual(['sscan', 'evalsha_ro']);
    expect(scriptCommands).not.toContain('memory');
  });

  it('does not grow with the number of aggregation groups', async () => {
    const m = newTaskMessage({ type: 't', queue: 'q', groupKey: 'g0' });
    await seedAggregating(redis, m);
    const few = await measure();

    const pipe = redis.pipeline();
    for (let g = 1; g < 2000; g++) {
      pipe.sadd(k.allGroups('q'), `g${g}`).zadd(k.groupKey('q', `g${g}`), 1, `id${g}`);
    }
    await pipe.exec();
    const many = await measure();

    expect(many.commands).toEqual(few.commands);
    // The script sums at most a fixed sample of groups; past it the count is an estimate.
    expect(many.scriptCommands.length).toBeLessThan(60);
    expect(many.result[0]).toMatchObject({ groups: 2000, aggregatingExact: false });
    expect(many.result[0]!.aggregating).toBe(2000);
    expect(few.result[0]).toMatchObject({ groups: 1, aggregating: 1, aggregatingExact: true });
  });
});
