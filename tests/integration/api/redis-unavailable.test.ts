/**
 * With Redis gone every read answers 503 redis_unavailable naming the address, promptly,
 * and reads work again by themselves once Redis is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../support/console-routes';
import { startRedisServer, type RunningRedis } from '../../../scripts/support/redis-server';
import { callRoute } from '../../support/call-route';

let server: RunningRedis;
let port: number;

beforeAll(async () => {
  server = await startRedisServer({ label: 'unavailable' });
  port = server.port;
  process.env.REDIS_URL = `redis://127.0.0.1:${port}/0`;
});
afterAll(() => server.stop());

describe('Redis unreachable', () => {
  it('answers 503 redis_unavailable, then recovers', async () => {
    const { queues, health, snapshot } = await consoleRoutes();
    expect((await callRoute(queues.GET, '/api/queues')).status).toBe(200);

    await server.stop();
    const started = Date.now();
    const down = await callRoute(queues.GET, '/api/queues');
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe('redis_unavailable');
    expect(down.body.error.message).toContain(`127.0.0.1:${port}`);
    expect(Date.now() - started).toBeLessThan(6000);
    expect((await callRoute(health.GET, '/api/health')).status).toBe(503);
    // The live snapshot carries the failure in a 200: the banner's words come from it.
    const live = await callRoute(snapshot.GET, '/api/snapshot');
    expect(live.status).toBe(200);
    expect(live.body.error).toMatchObject({ code: 'redis_unavailable' });
    expect(live.body.error.message).toContain(`127.0.0.1:${port}`);
    expect(live.body.totals).toBeNull();

    server = await startRedisServer({ label: 'unavailable', port });
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await callRoute(queues.GET, '/api/queues')).status;
    }
    expect(status).toBe(200);
  });
});
