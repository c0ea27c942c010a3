/**
 * ASYNQLENS_AUTH=login: sign-in, the session cookie (flags, tampering, expiry, revocation by
 * configuration and by sign-out), and the gate in proxy.ts and in every route. The throttle and
 * server-side sessions have their own files (throttle.test.ts, sessions.test.ts).
 */
import type { Redis } from 'ioredis';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callRoute, type Handler } from '../../support/call-route';
import { consoleRoutes } from '../../support/console-routes';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import { PASSWORD, SECRET, sessionCookie, usersEnv } from './support';

const DB = 90;
let redis: Redis;
let login: Handler, logout: Handler, me: Handler, queues: Handler, pause: Handler, health: Handler;
let proxy: (req: NextRequest) => Promise<Response>;

const json = { 'content-type': 'application/json' };
const signIn = (username: string, password: string, headers: Record<string, string> = {}) =>
  callRoute(login, '/api/auth/login', {}, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify({ username, password }) });
const cookieOf = (res: { headers: Headers }) => (res.headers.get('set-cookie') ?? '').split(';')[0]!;

beforeAll(async () => {
  process.env.REDIS_URL = testRedisUrl(DB);
  process.env.ASYNQLENS_AUTH = 'login';
  process.env.ASYNQLENS_AUDIT = 'on';
  process.env.ASYNQLENS_SESSION_SECRET = SECRET;
  process.env.ASYNQLENS_USERS = await usersEnv([['alice', 'operator'], ['victor', 'viewer'], ['tom', 'viewer']]);
  redis = await openTestRedis(DB);
  const routes = await consoleRoutes();
  login = routes.login.POST;
  logout = routes.logout.POST;
  me = routes.me.GET;
  queues = routes.queues.GET;
  pause = routes.pause.POST;
  health = routes.health.GET;
  proxy = (await import('@/proxy')).proxy;
});
beforeEach(async () => {
  await redis.flushdb();
  await redis.sadd('asynq:queues', 'q');
});
afterAll(async () => {
  await redis.quit();
});

describe('without credentials', () => {
  it('refuses reads and mutations with 401 unauthorized; health stays open', async () => {
    const read = await callRoute(queues, '/api/queues');
    expect(read.status).toBe(401);
    expect(read.body.error.code).toBe('unauthorized');
    const write = await callRoute(pause, '/api/queues/q/pause', { qname: 'q' }, { method: 'POST', headers: json, body: '{}' });
    expect(write.status).toBe(401);
    expect(await redis.exists('asynq:{q}:paused')).toBe(0);
    expect(await redis.llen('asynqlens:audit')).toBe(0);
    expect((await callRoute(health, '/api/health')).status).toBe(200);
  });

  it('proxy.ts redirects pages to /login?next= and answers API requests with the 401 envelope', async () => {
    const page = await proxy(new NextRequest('http://localhost/queues/q?state=archived'));
    expect(page.status).toBe(307);
    const to = new URL(page.headers.get('location')!);
    expect(to.pathname).toBe('/login');
    expect(to.searchParams.get('next')).toBe('/queues/q?state=archived');
    const api = await proxy(new NextRequest('http://localhost/api/queues'));
    expect(api.status).toBe(401);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    for (const open of ['/login', '/api/auth/login', '/api/health', '/api/health/live']) {
      expect((await proxy(new NextRequest(`http://localhost${open}`))).headers.get('x-middleware-next'), open).toBe('1');
    }
    const signedIn = await proxy(new NextRequest('http://localhost/', { headers: { cookie: await sessionCookie('alice', 'operator') } }));
    expect(signedIn.headers.get('x-middleware-next')).toBe('1');
  });
});

describe('sign-in', () => {
  it('sets an HttpOnly, SameSite=Lax session cookie that opens the API; /me names the user; logout expires it and ends the session', async () => {
    const res = await signIn('alice', PASSWORD);
    expect(res.status).toBe(204);
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^asynqlens_session=[\w-]+\.[\w-]+; /);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/;');
    expect(setCookie).toContain(`Max-Age=${12 * 3600}`);
    expect(setCookie).not.toContain('Secure');
    const cookie = cookieOf(res);
    const who = await callRoute(me, '/api/auth/me', {}, { headers: { cookie } });
    expect(who.body).toEqual({ user: 'alice', role: 'operator', mode: 'login' });
    expect((await callRoute(queues, '/api/queues', {}, { headers: { cookie } })).status).toBe(200);
    const out = await callRoute(logout, '/api/auth/logout', {}, { method: 'POST', headers: { cookie } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^asynqlens_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax/);
    // A copy of the cookie kept elsewhere no longer opens anything.
    const copied = await callRoute(queues, '/api/queues', {}, { headers: { cookie } });
    expect(copied.status).toBe(401);
    expect(copied.body.error.message).toContain('session ended');
    expect((await proxy(new NextRequest('http://localhost/api/queues', { headers: { cookie } }))).status).toBe(401);
  });

  it('Secure under https (x-forwarded-proto or the URL) in auto, always when forced, never when false; Path and Max-Age from the variables', async () => {
    const over = { 'x-forwarded-proto': 'https' };
    expect((await signIn('alice', PASSWORD, over)).headers.get('set-cookie')).toContain('; Secure');
    const direct = await login(new Request('https://localhost/api/auth/login', { method: 'POST', headers: json, body: JSON.stringify({ username: 'alice', password: PASSWORD }) }), { params: Promise.resolve({}) });
    expect(direct.headers.get('set-cookie')).toContain('; Secure');
    process.env.ASYNQLENS_COOKIE_SECURE = 'true';
    process.env.ASYNQLENS_BASE_PATH = '/lens';
    process.env.ASYNQLENS_SESSION_HOURS = '2';
    try {
      const forced = (await signIn('alice', PASSWORD)).headers.get('set-cookie')!;
      expect(forced).toContain('; Secure');
      expect(forced).toContain('Path=/lens;');
      expect(forced).toContain('Max-Age=7200;');
      process.env.ASYNQLENS_COOKIE_SECURE = 'false';
      expect((await signIn('alice', PASSWORD, over)).headers.get('set-cookie')).not.toContain('Secure');
    } finally {
      delete process.env.ASYNQLENS_COOKIE_SECURE;
      delete process.env.ASYNQLENS_BASE_PATH;
      delete process.env.ASYNQLENS_SESSION_HOURS;
    }
  });

  it('answers a wrong password and an unknown user with the same 401 message', async () => {
    const wrong = await signIn('alice', 'nope');
    const unknown = await signIn('mallory', 'nope');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error.code).toBe('unauthorized');
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a sign-in posted from another site', async () => {
    const res = await signIn('alice', PASSWORD, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.headers.get('set-cookie')).toBeNull();
  });
});

describe('session cookies that must not work', () => {
  const read = (cookie: string) => callRoute(queues, '/api/queues', {}, { headers: { cookie } });

  it('refuses a tampered cookie (role changed, signature kept) and one signed with another secret', async () => {
    const good = (await sessionCookie('victor', 'viewer')).slice('asynqlens_session='.length);
    const [body, sig] = good.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, r: 'operator' })).toString('base64url');
    const res = await read(`asynqlens_session=${forged}.${sig}`);
    expect(res.status).toBe(401);
    expect(res.body.error.message).toContain('signature');
    expect((await read(await sessionCookie('alice', 'operator', { secret: 'another-secret-0123456789abcdef-xyz' }))).status).toBe(401);
    expect((await read('asynqlens_session=garbage')).status).toBe(401);
  });

  it('refuses an expired cookie', async () => {
    const res = await read(await sessionCookie('alice', 'operator', { expInSeconds: -1 }));
    expect(res.status).toBe(401);
    expect(res.body.error.message).toContain('expired');
  });

  it('refuses the cookie of a user removed from the configuration, or whose role changed, at once', async () => {
    const saved = process.env.ASYNQLENS_USERS!;
    const cookie = await sessionCookie('victor', 'viewer');
    expect((await read(cookie)).status).toBe(200);
    try {
      process.env.ASYNQLENS_USERS = await usersEnv([['alice', 'operator']]);
      const gone = await read(cookie);
      expect(gone.status).toBe(401);
      expect(gone.body.error.message).toContain('no longer valid');
      process.env.ASYNQLENS_USERS = await usersEnv([['alice', 'operator'], ['victor', 'operator']]);
      expect((await read(cookie)).status).toBe(401);
    } finally {
      process.env.ASYNQLENS_USERS = saved;
    }
  });
});

describe('a configuration that cannot work', () => {
  it('answers 503 auth_misconfigured naming the variables, in routes and in proxy.ts', async () => {
    const saved = process.env.ASYNQLENS_USERS!;
    const cookie = await sessionCookie('alice', 'operator');
    delete process.env.ASYNQLENS_USERS;
    try {
      const res = await callRoute(queues, '/api/queues', {}, { headers: { cookie } });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('auth_misconfigured');
      expect(res.body.error.message).toContain('ASYNQLENS_USERS');
      expect(res.body.error.message).toContain('ASYNQLENS_USERS_FILE');
      expect((await proxy(new NextRequest('http://localhost/api/queues'))).status).toBe(503);
      const { describeAuthProblem } = await import('@/lib/server/auth/problem');
      expect(describeAuthProblem()).toContain('no users are configured');
      process.env.ASYNQLENS_USERS = 'alice:admin:scrypt$1024$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA==';
      expect(describeAuthProblem()).toBe('ASYNQLENS_USERS entry 1: unknown role "admin" for user alice (roles: viewer, operator)');
    } finally {
      process.env.ASYNQLENS_USERS = saved;
    }
    const { describeAuthProblem } = await import('@/lib/server/auth/problem');
    expect(describeAuthProblem()).toBeNull();
  });
});
