/**
 * A stalled Redis (CLIENT PAUSE: connected, not answering) is `asynqlens_redis_up 0` in a 200
 * scrape, both for the scrape whose read times out and for the later ones that the route
 * refuses at once while the stall lasts — never a 503 that Prometheus would discard. A private
 * redis-server, since CLIENT PAUSE stops every client of a server.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedPending } from '@/lib/asynq/testutil/seed';
import { consoleRoutes } from '../../support/console-routes';
import { startRedisServer, type RunningRedis } from '../../../scripts/support/redis-server';
import { callRoute } from '../../support/call-route';
import { parseExposition, valueOf } from './parse-exposition';

let server: RunningRedis;
let admin: Redis;

beforeAll(async () => {
  server = await startRedisServer({ label: 'metrics-stall' });
  process.env.REDIS_URL = server.url;
  process.env.ASYNQLENS_AUTH = 'none';
  process.env.ASYNQLENS_COMMAND_TIMEOUT_MS = '300';
  admin = new Redis(server.url);
  await seedPending(admin, newTaskMessage({ type: 't', queue: 'q' }));
});
afterAll(async () => {
  admin.disconnect();
  await server.stop();
});

async function scrape() {
  const { GET } = (await consoleRoutes()).metrics;
  const started = Date.now();
  const res = await callRoute(GET, '/api/metrics');
  const parsed = parseExposition(res.bytes.toString('utf8'));
  return { status: res.status, ms: Date.now() - started, up: valueOf(parsed, 'asynqlens_redis_up'), size: valueOf(parsed, 'asynq_queue_size', { queue: 'q' }) };
}

describe('Redis stalled', () => {
  it('scrapes answer 200 with asynqlens_redis_up 0 while it lasts, and 1 after', async () => {
    expect(await scrape()).toMatchObject({ status: 200, up: 1, size: 1 });
    await admin.client('PAUSE', 2000, 'ALL');
    const timedOut = await scrape();
    expect(timedOut).toMatchObject({ status: 200, up: 0, size: undefined });
    expect(timedOut.ms).toBeGreaterThanOrEqual(250);
    const refused = await scrape();
    expect(refused).toMatchObject({ status: 200, up: 0, size: undefined });
    expect(refused.ms).toBeLessThan(100);
    await admin.client('UNPAUSE');
    let after = await scrape();
    for (let i = 0; i < 20 && after.up !== 1; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await scrape();
    }
    expect(after).toMatchObject({ status: 200, up: 1, size: 1 });
  });
});
