/**
 * Nothing listens at REDIS_URL: readiness is a prompt 503 redis_unavailable naming the
 * address; liveness is still 200; a scrape is a 200 carrying asynqlens_redis_up 0 (Prometheus
 * keeps nothing from a non-2xx scrape, so that is how an alert gets to see it).
 */
import { createServer } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@/lib/contract/common';
import { callRoute } from '../../support/call-route';
import { consoleRoutes } from '../../support/console-routes';
import { parseExposition, splitScrape, valueOf } from './parse-exposition';

let port: number;

/** A port that was free a moment ago and has nothing listening on it now. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port: p } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return p;
}

beforeAll(async () => {
  port = await closedPort();
  process.env.REDIS_URL = `redis://127.0.0.1:${port}/3`;
  process.env.ASYNQLENS_AUTH = 'none';
});

describe('Redis down', () => {
  it('readiness answers 503 redis_unavailable naming the address, within the probe deadline', async () => {
    const { GET } = (await consoleRoutes()).health;
    const started = Date.now();
    const res = await callRoute(GET, '/api/health');
    expect(Date.now() - started).toBeLessThan(1500);
    expect(res.status).toBe(503);
    expect(res.headers.get('cache-control')).toBe('no-store');
    errorBodySchema.parse(res.body);
    expect(res.body.error).toMatchObject({ code: 'redis_unavailable', redisAddress: `127.0.0.1:${port}/3`, mode: 'standalone' });
    expect(res.body.error.message).toMatch(new RegExp(`^Redis at 127\\.0\\.0\\.1:${port}/3 is unreachable: .*ECONNREFUSED`));
    expect(res.body.error.reason).toBe('unreachable');
  });

  it('liveness answers 200', async () => {
    const { GET } = (await consoleRoutes()).live;
    const res = await callRoute(GET, '/api/health/live');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });

  it('a scrape answers 200 with asynqlens_redis_up 0 and no asynq series', async () => {
    const { GET } = (await consoleRoutes()).metrics;
    const res = await callRoute(GET, '/api/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = splitScrape(res.bytes.toString('utf8')).asynq;
    const parsed = parseExposition(text);
    expect(valueOf(parsed, 'asynqlens_redis_up')).toBe(0);
    expect(valueOf(parsed, 'asynqlens_scrape_duration_seconds')).toBeGreaterThan(0);
    expect(parsed.samples.map((s) => s.name).sort()).toEqual(['asynqlens_build_info', 'asynqlens_redis_up', 'asynqlens_scrape_duration_seconds']);
    expect(text).toContain('# TYPE asynqlens_redis_up gauge\n');
  });
});
