/**
 * What a scrape costs Redis, counted by Redis itself (MONITOR): 2 commands while the queues fit
 * in one stats call (always up to MIN_CHUNK queues) — SSCAN and the stats script, plus the
 * call again as EVAL_RO (the script whole) the first time a Redis sees it — and never a command
 * per queue or MEMORY USAGE. Thousands of queues are read in chunks of about 1.5 ms of Redis
 * time (tests/integration/inspector/queue-stats-chunks.test.ts). A private redis-server, because
 * SCRIPT FLUSH would disturb the other files' counts on the shared one.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedPending } from '@/lib/asynq/testutil/seed';
import { MIN_CHUNK } from '@/lib/asynq/inspector/queue-stats-chunks';
import { consoleRoutes } from '../../support/console-routes';
import { startRedisServer, type RunningRedis } from '../../../scripts/support/redis-server';
import { callRoute } from '../../support/call-route';
import { countCommands } from '../../support/command-counter';
import { parseExposition } from './parse-exposition';

let server: RunningRedis;
let redis: Redis;

beforeAll(async () => {
  server = await startRedisServer({ label: 'metrics-cost' });
  process.env.REDIS_URL = server.url;
  process.env.ASYNQLENS_AUTH = 'none';
  redis = new Redis(server.url);
});
afterAll(async () => {
  redis.disconnect();
  await server.stop();
});
beforeEach(() => redis.flushall());

async function scrape() {
  const { GET } = (await consoleRoutes()).metrics;
  const res = await callRoute(GET, '/api/metrics');
  expect(res.status).toBe(200);
  return parseExposition(res.bytes.toString('utf8'));
}

async function seedQueues(n: number) {
  for (let i = 0; i < n; i++) await seedPending(redis, newTaskMessage({ type: 't', queue: `q${String(i).padStart(3, '0')}` }));
}

const queueCount = (p: ReturnType<typeof parseExposition>) => p.samples.filter((s) => s.name === 'asynq_queue_size').length;

describe('scrape cost', () => {
  it.each([1, MIN_CHUNK])('is 2 commands with %i queues once Redis knows the script', async (n) => {
    await seedQueues(n);
    await scrape(); // loads the script, as any earlier read of a running console would have
    const { result, commands, scriptCommands } = await countCommands(server.url, 0, scrape);
    expect(queueCount(result)).toBe(n);
    expect(commands).toEqual(['sscan', 'evalsha_ro']);
    expect(scriptCommands).not.toContain('memory');
  });

  it('is 3 commands the first time a Redis sees the script (EVAL_RO sends it whole, which loads it)', async () => {
    await seedQueues(MIN_CHUNK);
    await redis.script('FLUSH');
    const { result, commands } = await countCommands(server.url, 0, scrape);
    expect(queueCount(result)).toBe(MIN_CHUNK);
    expect(commands).toEqual(['sscan', 'evalsha_ro', 'eval_ro']);
  });

  it('is 1 command with no queues', async () => {
    const { commands } = await countCommands(server.url, 0, scrape);
    expect(commands).toEqual(['sscan']);
  });
});
