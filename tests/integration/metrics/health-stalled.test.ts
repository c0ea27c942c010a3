/**
 * A Redis that accepts the connection and never answers: readiness gives up after its own
 * 1 s deadline, not the 5 s command timeout, and concurrent probes wait on one shared attempt.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBE_TIMEOUT_MS } from '@/lib/server/services/health';
import { callRoute } from '../../support/call-route';
import { consoleRoutes } from '../../support/console-routes';

let blackHole: Server;
const sockets: Socket[] = [];
let port: number;

beforeAll(async () => {
  blackHole = createServer((s) => sockets.push(s.on('error', () => {})));
  await new Promise<void>((r) => blackHole.listen(0, '127.0.0.1', r));
  port = (blackHole.address() as { port: number }).port;
  process.env.REDIS_URL = `redis://127.0.0.1:${port}/0`;
  process.env.ASYNQLENS_AUTH = 'none';
  process.env.ASYNQLENS_COMMAND_TIMEOUT_MS = '5000';
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => blackHole.close(r));
});

describe('Redis not answering', () => {
  it('readiness answers 503 after the 1 s probe deadline, one attempt for concurrent probes', async () => {
    expect(PROBE_TIMEOUT_MS).toBe(1000);
    const { GET } = (await consoleRoutes()).health;
    const started = Date.now();
    const all = await Promise.all(Array.from({ length: 5 }, () => callRoute(GET, '/api/health')));
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(2000);
    for (const res of all) {
      expect(res.status).toBe(503);
      expect(res.body.error).toMatchObject({ code: 'redis_unavailable', reason: 'stalled', redisAddress: `127.0.0.1:${port}/0` });
      expect(res.body.error.message).toBe(`Redis at 127.0.0.1:${port}/0 is stalled: no answer within 1000 ms`);
    }
    // The next probe is a new attempt, with its own deadline.
    const again = Date.now();
    expect((await callRoute(GET, '/api/health')).status).toBe(503);
    expect(Date.now() - again).toBeLessThan(2000);
  });
});
