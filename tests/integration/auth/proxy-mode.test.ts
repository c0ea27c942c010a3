/**
 * ASYNQLENS_AUTH=proxy (identity from a trusted proxy, proven by a shared secret), mode none,
 * and the metrics bearer token.
 */
import type { Redis } from 'ioredis';
import { NextRequest } from 'next/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callRoute, type Handler } from '../../support/call-route';
import { consoleRoutes } from '../../support/console-routes';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import { SECRET, sessionCookie, usersEnv } from './support';

const DB = 92;
const PROXY_SECRET = 'proxy-secret-0123456789';
let redis: Redis;
let queues: Handler, pause: Handler, me: Handler;
let proxy: (req: NextRequest) => Promise<Response>;
const json = { 'content-type': 'application/json' };
const VARS = ['ASYNQLENS_AUTH', 'ASYNQLENS_PROXY_USER_HEADER', 'ASYNQLENS_PROXY_ROLE_HEADER', 'ASYNQLENS_PROXY_OPERATORS', 'ASYNQLENS_PROXY_SECRET', 'ASYNQLENS_METRICS_TOKEN', 'ASYNQLENS_USERS', 'ASYNQLENS_SESSION_SECRET'];

function proxyMode(extra: Record<string, string> = {}) {
  Object.assign(process.env, {
    ASYNQLENS_AUTH: 'proxy',
    ASYNQLENS_AUDIT: 'on',
    ASYNQLENS_PROXY_USER_HEADER: 'X-Forwarded-User',
    ASYNQLENS_PROXY_OPERATORS: 'alice, bob',
    ASYNQLENS_PROXY_SECRET: PROXY_SECRET,
    ...extra,
  });
}
const withSecret = (user: string, more: Record<string, string> = {}) => ({ 'x-forwarded-user': user, 'x-asynqlens-proxy-secret': PROXY_SECRET, ...more });
const doPause = (headers: Record<string, string>) => callRoute(pause, '/api/queues/q/pause', { qname: 'q' }, { method: 'POST', headers: { ...json, ...headers }, body: '{}' });

beforeAll(async () => {
  process.env.REDIS_URL = testRedisUrl(DB);
  redis = await openTestRedis(DB);
  const routes = await consoleRoutes();
  queues = routes.queues.GET;
  pause = routes.pause.POST;
  me = routes.me.GET;
  proxy = (await import('@/proxy')).proxy;
});
beforeEach(async () => {
  await redis.flushdb();
  await redis.sadd('asynq:queues', 'q');
});
afterEach(() => {
  for (const v of VARS) delete process.env[v];
});
afterAll(async () => {
  await redis.quit();
});

describe('proxy mode', () => {
  it('refuses requests without an identity (401) on reads and mutations, in routes and proxy.ts', async () => {
    proxyMode();
    expect((await callRoute(queues, '/api/queues')).status).toBe(401);
    expect((await doPause({})).status).toBe(401);
    expect((await proxy(new NextRequest('http://localhost/api/queues'))).status).toBe(401);
    expect((await proxy(new NextRequest('http://localhost/servers'))).status).toBe(307);
  });

  it('refuses an identity header without the secret, or with a wrong one (401)', async () => {
    proxyMode();
    const attempts: Record<string, string>[] = [{ 'x-forwarded-user': 'alice' }, { 'x-forwarded-user': 'alice', 'x-asynqlens-proxy-secret': 'proxy-secret-wrong-value' }];
    for (const headers of attempts) {
      const res = await callRoute(queues, '/api/queues', {}, { headers });
      expect(res.status).toBe(401);
      expect(res.body.error.message).toContain('x-asynqlens-proxy-secret');
      expect((await proxy(new NextRequest('http://localhost/', { headers }))).status).toBe(307);
    }
    expect((await doPause({ 'x-forwarded-user': 'alice' })).status).toBe(401);
    expect(await redis.exists('asynq:{q}:paused')).toBe(0);
  });

  it('maps ASYNQLENS_PROXY_OPERATORS to operator and everyone else to the default role', async () => {
    proxyMode();
    expect((await callRoute(me, '/api/auth/me', {}, { headers: withSecret('bob') })).body).toEqual({ user: 'bob', role: 'operator', mode: 'proxy' });
    expect((await callRoute(queues, '/api/queues', {}, { headers: withSecret('carol') })).status).toBe(200);
    const refused = await doPause(withSecret('carol'));
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden_role');
    expect((await doPause(withSecret('alice'))).status).toBe(200);
    const records = (await redis.lrange('asynqlens:audit', 0, -1)).map((s) => JSON.parse(s));
    expect(records.map((r) => [r.user, r.role, r.action, r.status])).toEqual([['alice', 'operator', 'pause-queue', 200]]);
    // carol's refusal is counted apart from the record of changes.
    const [key] = await redis.keys('asynqlens:audit:{refusals}:*');
    expect(JSON.parse((await redis.hget(key!, JSON.stringify(['carol', 'POST', '/api/queues/[qname]/pause'])))!)).toMatchObject({ role: 'viewer', count: 1, status: 403 });
  });

  it('takes the role from ASYNQLENS_PROXY_ROLE_HEADER when the proxy sends it, and refuses an unknown one', async () => {
    proxyMode({ ASYNQLENS_PROXY_ROLE_HEADER: 'x-forwarded-role' });
    expect((await callRoute(me, '/api/auth/me', {}, { headers: withSecret('carol', { 'x-forwarded-role': 'operator' }) })).body.role).toBe('operator');
    expect((await callRoute(me, '/api/auth/me', {}, { headers: withSecret('alice', { 'x-forwarded-role': 'viewer' }) })).body.role).toBe('viewer');
    expect((await callRoute(me, '/api/auth/me', {}, { headers: withSecret('carol', { 'x-forwarded-role': 'root' }) })).status).toBe(401);
  });

  it('needs its header and a 16-character secret (503 auth_misconfigured naming the variable)', async () => {
    proxyMode({ ASYNQLENS_PROXY_SECRET: 'short' });
    const res = await callRoute(queues, '/api/queues', {}, { headers: withSecret('alice') });
    expect(res.status).toBe(503);
    expect(res.body.error.message).toContain('ASYNQLENS_PROXY_SECRET');
  });
});

describe('mode none', () => {
  it('allows reads and mutations without credentials, recorded as anonymous', async () => {
    process.env.ASYNQLENS_AUTH = 'none';
    process.env.ASYNQLENS_AUDIT = 'on';
    expect((await callRoute(queues, '/api/queues')).status).toBe(200);
    expect((await doPause({})).status).toBe(200);
    expect(await redis.exists('asynq:{q}:paused')).toBe(1);
    const [record] = (await redis.lrange('asynqlens:audit', 0, -1)).map((s) => JSON.parse(s) as { user: string; role: string; action: string; count: number });
    expect(record).toMatchObject({ user: 'anonymous', role: 'operator', action: 'pause-queue', count: 1 });
    // Off: nothing is recorded.
    process.env.ASYNQLENS_AUDIT = 'off';
    await redis.del('asynq:{q}:paused', 'asynqlens:audit');
    expect((await doPause({})).status).toBe(200);
    expect(await redis.exists('asynqlens:audit')).toBe(0);
    delete process.env.ASYNQLENS_AUDIT;
    expect((await callRoute(me, '/api/auth/me')).body).toEqual({ user: 'anonymous', role: 'operator', mode: 'none' });
    expect((await proxy(new NextRequest('http://localhost/queues/q'))).headers.get('x-middleware-next')).toBe('1');
  });
});

describe('/api/metrics', () => {
  const TOKEN = 'metrics-token-0123456789';
  const gate = (headers: Record<string, string> = {}, path = '/api/metrics') => proxy(new NextRequest(`http://localhost${path}`, { headers }));
  const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

  it('is open to the bearer token when ASYNQLENS_METRICS_TOKEN is set, in every mode; a wrong token is 401', async () => {
    for (const mode of ['login', 'proxy', 'none']) {
      process.env.ASYNQLENS_AUTH = mode;
      process.env.ASYNQLENS_USERS = await usersEnv([['alice', 'operator']]);
      process.env.ASYNQLENS_SESSION_SECRET = SECRET;
      proxyMode({ ASYNQLENS_AUTH: mode, ASYNQLENS_METRICS_TOKEN: TOKEN });
      expect((await gate(bearer(TOKEN))).headers.get('x-middleware-next'), mode).toBe('1');
      expect((await gate(bearer('metrics-token-wrong-value'))).status, mode).toBe(401);
      // Prometheus' default path, rewritten to the route after this gate: same rules, never a redirect.
      expect((await gate(bearer(TOKEN), '/metrics')).headers.get('x-middleware-next'), mode).toBe('1');
      expect((await gate(bearer('metrics-token-wrong-value'), '/metrics')).status, mode).toBe(401);
    }
    const metrics = (await consoleRoutes()).metrics.GET as Handler;
    process.env.ASYNQLENS_AUTH = 'login';
    expect((await callRoute(metrics, '/api/metrics', {}, { headers: bearer(TOKEN) })).status).toBe(200);
    expect((await callRoute(metrics, '/api/metrics', {}, { headers: bearer('metrics-token-wrong-value') })).status).toBe(401);
    expect((await callRoute(metrics, '/api/metrics')).status).toBe(401);
  });

  it('follows the normal rules without the token: an identity in login mode, open in mode none', async () => {
    process.env.ASYNQLENS_AUTH = 'login';
    process.env.ASYNQLENS_USERS = await usersEnv([['alice', 'operator']]);
    process.env.ASYNQLENS_SESSION_SECRET = SECRET;
    expect((await gate()).status).toBe(401);
    expect((await gate({}, '/metrics')).status, 'a scraper gets a 401, not a login page').toBe(401);
    expect((await gate({ cookie: await sessionCookie('alice', 'operator') })).headers.get('x-middleware-next')).toBe('1');
    process.env.ASYNQLENS_METRICS_TOKEN = TOKEN;
    expect((await gate()).status).toBe(401);
    process.env.ASYNQLENS_AUTH = 'none';
    delete process.env.ASYNQLENS_METRICS_TOKEN;
    expect((await gate()).headers.get('x-middleware-next')).toBe('1');
  });
});
