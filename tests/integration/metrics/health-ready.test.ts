/**
 * Readiness with Redis up: one INFO server per probe, the fields the dashboard has always read
 * plus status, address, mode, latency and the package.json version, never cached. Liveness
 * never touches Redis.
 */
import { describe, expect, it } from 'vitest';
import pkg from '@/package.json' with { type: 'json' };
import { healthProbeSchema, livenessSchema } from '@/lib/contract/health';
import { callRoute } from '../../support/call-route';
import { useConsoleRoutes } from '../../support/console-routes';
import { countCommands } from '../../support/command-counter';
import { testRedisUrl } from '../../support/test-redis';

const DB = 83;
// Shared snapshots on: readiness must still read Redis on every probe.
const { redis, routes } = await useConsoleRoutes(DB, { env: { ASYNQLENS_AUTH: 'none', ASYNQLENS_SNAPSHOT_MS: '60000' }, flushEach: false });

describe('GET /api/health', () => {
  it('answers 200 with the Redis version, address, mode, latency and app version', async () => {
    const { GET } = routes.health;
    const res = await callRoute(GET, '/api/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = healthProbeSchema.strict().parse(res.body);
    const info = await redis.info('server');
    expect(body).toMatchObject({
      status: 'ok',
      redis: 'ok',
      redisVersion: /redis_version:(\S+)/.exec(info)![1],
      redisAddress: `127.0.0.1:${new URL(testRedisUrl(DB)).port}/${DB}`,
      mode: 'standalone',
      version: pkg.version,
      readOnly: false,
    });
    expect(body.latencyMs).toBeGreaterThan(0);
    expect(body.latencyMs).toBeLessThan(1000);
  });

  it('reads Redis on every probe (one INFO), sharing only a probe already in flight', async () => {
    const { GET } = routes.health;
    const sequential = await countCommands(testRedisUrl(DB), DB, async () => {
      for (let i = 0; i < 3; i++) expect((await callRoute(GET, '/api/health')).status).toBe(200);
    });
    expect(sequential.commands).toEqual(['info', 'info', 'info']);
    const concurrent = await countCommands(testRedisUrl(DB), DB, () => Promise.all(Array.from({ length: 10 }, () => callRoute(GET, '/api/health'))));
    expect(concurrent.result.every((r) => r.status === 200)).toBe(true);
    expect(concurrent.commands).toEqual(['info']);
  });
});

describe('GET /api/health/live', () => {
  it('answers 200 without sending Redis anything', async () => {
    const { GET } = routes.live;
    const { result, commands } = await countCommands(testRedisUrl(DB), DB, () => callRoute(GET, '/api/health/live'));
    expect(commands).toEqual([]);
    expect(result.status).toBe(200);
    expect(result.headers.get('cache-control')).toBe('no-store');
    expect(livenessSchema.strict().parse(result.body)).toMatchObject({ status: 'ok', version: pkg.version });
  });
});
