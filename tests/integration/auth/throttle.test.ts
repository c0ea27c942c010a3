/**
 * Sign-in throttling against a real Redis: attempts count against the TCP peer (as the launcher
 * passes it), X-Forwarded-For only from a trusted proxy; an account under attack is slowed, never
 * locked, for anyone signing in from a clean address; bursts and made-up names gain nothing.
 */
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addressKey, clientAddress, parseTrustedProxies } from '@/lib/server/auth/client-address';
import { admit, delayAfter, DEFAULT_POLICY, settle, type ThrottlePolicy } from '@/lib/server/auth/throttle';
import { callRoute, type Handler } from '../../support/call-route';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import { PASSWORD, SECRET, usersEnv } from './support';
import { consoleRoutes } from '../../support/console-routes';

const DB = 121;
let redis: Redis;
let login: Handler;

const signIn = (username: string, password: string, from: { peer?: string; xff?: string } = {}) =>
  callRoute(login, '/api/auth/login', {}, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(from.peer ? { 'x-asynqlens-peer': from.peer } : {}), ...(from.xff ? { 'x-forwarded-for': from.xff } : {}) },
    body: JSON.stringify({ username, password }),
  });

const failN = async (n: number, username: string, from: { peer?: string; xff?: string | (() => string) }) => {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await signIn(username, `guess ${i}`, { peer: from.peer, xff: typeof from.xff === 'function' ? from.xff() : from.xff })).status);
  return statuses;
};

beforeAll(async () => {
  process.env.REDIS_URL = testRedisUrl(DB);
  process.env.ASYNQLENS_AUTH = 'login';
  process.env.ASYNQLENS_SESSION_SECRET = SECRET;
  process.env.ASYNQLENS_USERS = await usersEnv([['alice', 'operator'], ['tom', 'viewer']]);
  redis = await openTestRedis(DB);
  login = (await consoleRoutes()).login.POST;
});
beforeEach(async () => {
  await redis.flushdb();
  // What the launcher (bin/asynqlens.mjs) declares once it stamps every request with its peer.
  process.env.ASYNQLENS_PEER_FROM_LAUNCHER = '1';
});
afterEach(() => {
  delete process.env.ASYNQLENS_PEER_FROM_LAUNCHER;
  delete process.env.ASYNQLENS_TRUSTED_PROXIES;
});
afterAll(async () => {
  await redis.quit();
});

describe('the address an attempt counts against', () => {
  const req = (headers: Record<string, string>) => new Request('http://localhost/api/auth/login', { headers });
  const proxies = parseTrustedProxies('10.0.0.0/8, fd00::/8, 192.0.2.1');

  it('is the peer; X-Forwarded-For only when the peer is a trusted proxy, right-most untrusted hop', () => {
    expect(clientAddress(req({ 'x-asynqlens-peer': '203.0.113.9', 'x-forwarded-for': '1.2.3.4' }), proxies)).toBe('203.0.113.9');
    expect(clientAddress(req({ 'x-asynqlens-peer': '::ffff:203.0.113.9' }), proxies)).toBe('203.0.113.9');
    expect(clientAddress(req({ 'x-asynqlens-peer': '10.1.2.3', 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 10.0.0.9' }), proxies)).toBe('198.51.100.7');
    expect(clientAddress(req({ 'x-asynqlens-peer': 'fd00::1', 'x-forwarded-for': '2001:db8::5, fd12::3' }), proxies)).toBe('2001:db8::5');
    expect(clientAddress(req({ 'x-asynqlens-peer': '192.0.2.1', 'x-forwarded-for': '10.0.0.7' }), proxies), 'every hop trusted: the left-most').toBe('10.0.0.7');
    expect(clientAddress(req({ 'x-asynqlens-peer': '192.0.2.1' }), proxies), 'a trusted peer that sent no hop').toBe('192.0.2.1');
  });

  it('is "unknown" for everyone when the launcher did not stamp the request, whatever the client wrote', () => {
    delete process.env.ASYNQLENS_PEER_FROM_LAUNCHER;
    expect(clientAddress(req({ 'x-asynqlens-peer': '203.0.113.9', 'x-forwarded-for': '1.2.3.4' }), proxies)).toBe('unknown');
  });

  it('groups IPv6 by /64 and refuses a malformed ASYNQLENS_TRUSTED_PROXIES entry by name', () => {
    expect(addressKey('2001:db8:1:2::a')).toBe(addressKey('2001:0db8:0001:0002:ffff::b'));
    expect(addressKey('2001:db8:1:3::a')).not.toBe(addressKey('2001:db8:1:2::a'));
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(() => parseTrustedProxies('10.0.0.0/8,10.0.0.0/33')).toThrow('"10.0.0.0/33"');
    expect(() => parseTrustedProxies('proxy.internal')).toThrow('ASYNQLENS_TRUSTED_PROXIES');
  });
});

describe('sign-in throttling', () => {
  it('cannot be bypassed with a forged X-Forwarded-For: the peer is counted', async () => {
    let n = 0;
    const statuses = await failN(6, 'tom', { peer: '203.0.113.9', xff: () => `198.51.100.${++n}` });
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const refused = await signIn('tom', PASSWORD, { peer: '203.0.113.9', xff: '198.51.100.200' });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('too_many_attempts');
    expect(refused.body.error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it('without the launcher, a forged x-asynqlens-peer gains nothing (every client is one address)', async () => {
    delete process.env.ASYNQLENS_PEER_FROM_LAUNCHER;
    let n = 0;
    for (let i = 0; i < 5; i++) expect((await signIn('tom', 'guess', { peer: `198.51.100.${++n}` })).status).toBe(401);
    expect((await signIn('tom', 'guess', { peer: `198.51.100.${++n}` })).status).toBe(429);
  });

  it('honours the hop a trusted proxy reports, and only that hop', async () => {
    process.env.ASYNQLENS_TRUSTED_PROXIES = '10.0.0.0/8';
    const viaProxy = (client: string, forged = '') => ({ peer: '10.0.0.5', xff: `${forged}${client}` });
    expect(await failN(5, 'tom', viaProxy('198.51.100.7'))).toEqual([401, 401, 401, 401, 401]);
    // The attacker writes its own left-most hops: the proxy's right-most one still names it.
    expect((await signIn('tom', 'guess', viaProxy('198.51.100.7', '192.0.2.99, '))).status).toBe(429);
    // Another client behind the same proxy is another address: it signs in at once.
    expect((await signIn('tom', PASSWORD, viaProxy('192.0.2.44'))).status).toBe(204);
  });

  it('lets the victim sign in at once from a clean address while an attacker guesses from another', async () => {
    const attacker = await failN(30, 'alice', { peer: '203.0.113.9' });
    expect(attacker.filter((s) => s === 401)).toHaveLength(5);
    expect(attacker.slice(5).every((s) => s === 429)).toBe(true);
    const victim = await signIn('alice', PASSWORD, { peer: '192.0.2.10' });
    expect(victim.status).toBe(204);
    expect(victim.headers.get('set-cookie')).toMatch(/^asynqlens_session=/);
  });

  it('admits one attempt at a time per address, so a parallel burst is not a way round the count', async () => {
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn('tom', `guess ${i}`, { peer: '203.0.113.50' })));
    const checked = burst.filter((r) => r.status === 401).length;
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThanOrEqual(DEFAULT_POLICY.freePerAccount);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(30 - checked);
  });

  it('keeps one counter for every unknown name, so made-up names neither grow Redis nor escape the delay', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await signIn(`nobody-${i}`, 'guess', { peer: '203.0.113.77' })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const keys = await redis.keys('asynqlens:{login}:*');
    expect(keys.filter((k) => k.includes(':fails:user:'))).toEqual(['asynqlens:{login}:fails:user:?']);
    for (const key of keys) expect(await redis.pttl(key), key).toBeGreaterThan(0);
  });

  it('slows one address trying many accounts, and grows each delay 1×, 2×, 4× … up to the cap', async () => {
    const p: ThrottlePolicy = { ...DEFAULT_POLICY, freePerAddress: 3, freePerAccount: 2, firstDelayMs: 150, maxDelayMs: 600, windowMs: 3000 };
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => delayAfter(n, 2, p))).toEqual([0, 0, 150, 300, 600, 600, 600]);
    const attempt = async (account: string, addr = '203.0.113.1') => {
      const a = { addr, account };
      const g = await admit(redis, a, p);
      if (g.ok) await settle(redis, a, true, p);
      return g.ok;
    };
    // Three accounts, one failure each: the address's free failures are spent.
    expect([await attempt('a'), await attempt('b'), await attempt('c')]).toEqual([true, true, true]);
    expect(await attempt('d'), 'a fourth account from the same address waits').toBe(false);
    expect(await redis.pttl('asynqlens:{login}:turn:addr:203.0.113.1')).toBeLessThanOrEqual(150);
    await new Promise((r) => setTimeout(r, 200));
    expect(await attempt('d')).toBe(true);
    expect(await redis.pttl('asynqlens:{login}:turn:addr:203.0.113.1'), 'the next delay is twice as long').toBeGreaterThan(150);
    // Per account: another (dirty) address waits on the account's own delay.
    expect([await attempt('tom', '198.51.100.1'), await attempt('tom', '198.51.100.1')]).toEqual([true, true]);
    expect(await attempt('tom', '198.51.100.2'), 'a fresh address skips the account delay').toBe(true);
    expect(await attempt('tom', '198.51.100.1'), 'a dirty one does not').toBe(false);
    expect(await redis.pttl('asynqlens:{login}:fails:user:tom')).toBeLessThanOrEqual(3000);
  });
});
