/**
 * Sessions kept in Redis: sign-out ends a copied cookie, a changed password or role or a removed
 * user ends every session, an unused session ends after the idle timeout, sign out everywhere,
 * the per-user cap, what one request costs Redis, and two replicas (two module instances with
 * their own caches, one Redis) agreeing.
 */
import type { Redis } from 'ioredis';
import { NextRequest } from 'next/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CACHE_MS, MAX_SESSIONS_PER_USER } from '@/lib/server/auth/session-store';
import { callRoute, type Handler } from '../../support/call-route';
import { countCommands } from '../../support/command-counter';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import { PASSWORD, SECRET, usersEnv } from './support';
import { consoleRoutes } from '../../support/console-routes';

const DB = 122;
const json = { 'content-type': 'application/json' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let redis: Redis;
let users: string;

interface Replica {
  login: Handler;
  logout: Handler;
  everywhere: Handler;
  me: Handler;
  proxy: (req: NextRequest) => Promise<Response>;
}
let a: Replica;

/** The console's auth routes and gate as one process loads them, with its own session cache. */
async function loadReplica(): Promise<Replica> {
  vi.resetModules();
  delete (globalThis as { asynqlensLiveSessions?: unknown }).asynqlensLiveSessions;
  return {
    login: (await consoleRoutes()).login.POST,
    logout: (await consoleRoutes()).logout.POST,
    everywhere: (await consoleRoutes()).logoutEverywhere.POST,
    me: (await consoleRoutes()).me.GET,
    proxy: (await import('@/proxy')).proxy,
  };
}

async function signIn(r: Replica, username = 'alice', password = PASSWORD): Promise<string> {
  const res = await callRoute(r.login, '/api/auth/login', {}, { method: 'POST', headers: json, body: JSON.stringify({ username, password }) });
  expect(res.status, JSON.stringify(res.body)).toBe(204);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}
const who = (r: Replica, cookie: string) => callRoute(r.me, '/api/auth/me', {}, { headers: { cookie } });
const post = (h: Handler, path: string, cookie: string) => callRoute(h, path, {}, { method: 'POST', headers: { ...json, cookie }, body: '{}' });

beforeAll(async () => {
  process.env.REDIS_URL = testRedisUrl(DB);
  process.env.ASYNQLENS_AUTH = 'login';
  process.env.ASYNQLENS_SESSION_SECRET = SECRET;
  users = await usersEnv([['alice', 'operator'], ['tom', 'viewer']]);
  redis = await openTestRedis(DB);
  a = await loadReplica();
});
beforeEach(async () => {
  process.env.ASYNQLENS_USERS = users;
  await redis.flushdb();
});
afterEach(() => {
  delete process.env.ASYNQLENS_SESSION_IDLE_MINUTES;
});
afterAll(async () => {
  await redis.quit();
});

describe('sign-out', () => {
  it('ends the session on the server: a copy of the cookie stops working in the routes and in proxy.ts', async () => {
    const cookie = await signIn(a);
    const copy = cookie;
    expect((await who(a, copy)).body).toEqual({ user: 'alice', role: 'operator', mode: 'login' });
    expect((await post(a.logout, '/api/auth/logout', cookie)).status).toBe(204);
    const after = await who(a, copy);
    expect(after.status).toBe(401);
    expect(after.body.error.message).toContain('session ended');
    const page = await a.proxy(new NextRequest('http://localhost/queues', { headers: { cookie: copy } }));
    expect(page.status).toBe(307);
    expect(await redis.keys('asynqlens:{session:*}:s:*')).toEqual([]);
  });

  it('everywhere ends every session of that user and no other, and answers how many', async () => {
    const [c1, c2, c3] = [await signIn(a), await signIn(a), await signIn(a)];
    const toms = await signIn(a, 'tom');
    const res = await post(a.everywhere, '/api/auth/logout-everywhere', c2);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: 'alice', ended: 3 });
    expect(res.headers.get('set-cookie')).toMatch(/^asynqlens_session=; .*Max-Age=0/);
    for (const c of [c1, c2, c3]) expect((await who(a, c)).status).toBe(401);
    expect((await who(a, toms)).status).toBe(200);
    expect((await post(a.everywhere, '/api/auth/logout-everywhere', c1)).status, 'an ended session cannot do it again').toBe(401);
  });
});

describe('a changed configuration', () => {
  it('ends every session of a user whose password changed, whose role changed, or who was removed', async () => {
    const cookie = await signIn(a);
    const toms = await signIn(a, 'tom');
    // Same name and role, a new hash (the same password, re-hashed: a new salt).
    process.env.ASYNQLENS_USERS = `${(await usersEnv([['alice', 'operator']]))},${users.split(',')[1]}`;
    const changed = await who(a, cookie);
    expect(changed.status).toBe(401);
    expect(changed.body.error.message).toContain('password changed');
    expect((await who(a, toms)).status, 'other users keep theirs').toBe(200);
    process.env.ASYNQLENS_USERS = `${users.split(',')[0]},${users.split(',')[1]!.replace(':viewer:', ':operator:')}`;
    expect((await who(a, toms)).status, 'role changed').toBe(401);
    process.env.ASYNQLENS_USERS = users;
    const again = await signIn(a, 'tom');
    process.env.ASYNQLENS_USERS = users.split(',')[0]!;
    expect((await who(a, again)).status, 'removed').toBe(401);
  });
});

describe('the idle timeout', () => {
  it('ends a session unused for ASYNQLENS_SESSION_IDLE_MINUTES; use keeps it alive', async () => {
    process.env.ASYNQLENS_SESSION_IDLE_MINUTES = '0.05'; // 3 s
    const used = await signIn(a);
    const unused = await signIn(a);
    for (let i = 0; i < 4; i++) {
      await sleep(1200);
      expect((await who(a, used)).status, `use ${i}`).toBe(200);
    }
    const idle = await who(a, unused);
    expect(idle.status).toBe(401);
    expect(idle.body.error.message).toContain('unused for 0.05 minutes');
    expect((await who(a, used)).status).toBe(200);
  }, 20_000);

  it('is checked against the session length: longer than the session is refused by name', async () => {
    process.env.ASYNQLENS_SESSION_IDLE_MINUTES = '900';
    const res = await who(a, 'asynqlens_session=x');
    expect(res.status).toBe(503);
    expect(res.body.error.message).toContain('ASYNQLENS_SESSION_IDLE_MINUTES');
  });
});

describe('what sessions keep in Redis', () => {
  it(`is at most ${MAX_SESSIONS_PER_USER} sessions per user (the oldest end first), every key expiring`, async () => {
    const cookies: string[] = [];
    for (let i = 0; i < MAX_SESSIONS_PER_USER + 2; i++) cookies.push(await signIn(a));
    expect((await who(a, cookies[0]!)).status).toBe(401);
    expect((await who(a, cookies[1]!)).status).toBe(401);
    expect((await who(a, cookies[2]!)).status).toBe(200);
    expect((await who(a, cookies.at(-1)!)).status).toBe(200);
    const keys = await redis.keys('asynqlens:{session:*');
    expect(keys).toHaveLength(MAX_SESSIONS_PER_USER + 1);
    for (const key of keys) expect(await redis.pttl(key), key).toBeGreaterThan(0);
    const index = keys.find((k) => k.endsWith(':index'))!;
    expect(await redis.zcard(index)).toBe(MAX_SESSIONS_PER_USER);
  });

  it('costs one PEXPIRE per session per second and process: a page load through proxy.ts, layout and API calls is one call', async () => {
    const cookie = await signIn(a);
    await sleep(CACHE_MS + 50);
    const { commands } = await countCommands(testRedisUrl(DB), DB, async () => {
      for (let i = 0; i < 20; i++) {
        expect((await a.proxy(new NextRequest('http://localhost/api/queues', { headers: { cookie } }))).headers.get('x-middleware-next')).toBe('1');
        expect((await who(a, cookie)).status).toBe(200);
      }
    });
    expect(commands).toEqual(['pexpire']);
  });
});

describe('two replicas on one Redis', () => {
  it('agree on sign-in, sign-out (within CACHE_MS), sign out everywhere and the throttle', async () => {
    const b = await loadReplica();
    const cookie = await signIn(a);
    expect((await who(b, cookie)).status, 'signed in on A, known on B').toBe(200);
    expect((await who(a, cookie)).status).toBe(200);
    expect((await post(b.logout, '/api/auth/logout', cookie)).status).toBe(204);
    expect((await who(b, cookie)).status, 'at once on the replica that signed out').toBe(401);
    await sleep(CACHE_MS + 50);
    expect((await who(a, cookie)).status, 'on the other within CACHE_MS').toBe(401);

    const [c1, c2] = [await signIn(a), await signIn(b)];
    expect((await post(b.everywhere, '/api/auth/logout-everywhere', c1)).body).toEqual({ user: 'alice', ended: 2 });
    await sleep(CACHE_MS + 50);
    expect([(await who(a, c1)).status, (await who(a, c2)).status]).toEqual([401, 401]);

    const guess = (r: Replica) => callRoute(r.login, '/api/auth/login', {}, { method: 'POST', headers: json, body: JSON.stringify({ username: 'tom', password: 'guess' }) });
    for (let i = 0; i < 5; i++) expect((await guess(i % 2 ? a : b)).status).toBe(401);
    expect((await guess(a)).status).toBe(429);
    expect((await guess(b)).status).toBe(429);
  }, 20_000);
});

describe('proxy mode', () => {
  it('keeps no sessions: sign out everywhere is refused by name and nothing is written', async () => {
    process.env.ASYNQLENS_AUTH = 'proxy';
    process.env.ASYNQLENS_PROXY_USER_HEADER = 'x-forwarded-user';
    process.env.ASYNQLENS_PROXY_SECRET = 'proxy-secret-0123456789';
    try {
      const headers = { ...json, 'x-forwarded-user': 'alice', 'x-asynqlens-proxy-secret': 'proxy-secret-0123456789' };
      expect((await callRoute(a.me, '/api/auth/me', {}, { headers })).body).toEqual({ user: 'alice', role: 'viewer', mode: 'proxy' });
      const res = await callRoute(a.everywhere, '/api/auth/logout-everywhere', {}, { method: 'POST', headers, body: '{}' });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('ASYNQLENS_AUTH is proxy');
      expect(await redis.dbsize()).toBe(0);
    } finally {
      process.env.ASYNQLENS_AUTH = 'login';
      delete process.env.ASYNQLENS_PROXY_USER_HEADER;
      delete process.env.ASYNQLENS_PROXY_SECRET;
    }
  });
});
