/**
 * A reconnect the client starts itself: ioredis closes the connection on purpose when a
 * Sentinel announces +switch-master, or when a demoted master answers READONLY. Until the
 * socket's close event the status still says `ready`, but nothing can be written. A request
 * arriving in that moment must wait for the reconnect and succeed, not answer 503.
 */
import type { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { consoleRoutes, type ConsoleRoutes } from '../../support/console-routes';
import { testRedisUrl } from '../../support/test-redis';
import { get, post, report, timed } from './helpers';

const DB = 39;
let r: ConsoleRoutes;

beforeAll(async () => {
  process.env.REDIS_URL = testRedisUrl(DB);
  r = await consoleRoutes();
});

/** The console's own connection (lib/server/redis/client.ts keeps it on globalThis). */
const consoleClient = () => (globalThis as unknown as { asynqlensRedis: Redis }).asynqlensRedis;

describe('a reconnect the client starts itself', () => {
  it('a read and a change made at that moment wait for it and succeed', async () => {
    expect((await get(r.queues.GET)).status).toBe(200);
    for (const [what, request, ok] of [
      ['queue list', () => get(r.queues.GET), 200],
      ['enqueue', () => post(r.tasks.POST, { qname: 'switch' }, { type: 't' }), 201],
    ] as const) {
      const client = consoleClient();
      expect(client.status).toBe('ready');
      // What ioredis' failover detector does on +switch-master.
      client.disconnect(true);
      const res = await timed(request);
      report(`request during a reconnect the client started: ${what} → ${res.status}`, res.ms);
      expect(res.status, JSON.stringify(res.body)).toBe(ok);
      expect(consoleClient()).toBe(client);
    }
  });
});
