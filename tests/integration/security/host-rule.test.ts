/**
 * The Host rule in proxy.ts, in each authentication mode: without authentication only loopback
 * names and ASYNQLENS_ALLOWED_HOSTS are served (DNS rebinding gets 421 naming the variable);
 * with login or a proxy the same list is enforced once it is set. Also the settings' own
 * mistakes, which stop the server at start.
 */
import { NextRequest } from 'next/server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configurationProblem } from '@/lib/server/config/startup-check';
import { SECRET, sessionCookie, usersEnv } from '../auth/support';
import { testRedisUrl } from '../../support/test-redis';

/** Login mode keeps its sessions in Redis (lib/server/auth/session-store.ts). */
const DB = 124;

let proxy: (req: NextRequest) => Promise<Response>;
const PROXY_SECRET = 'proxy-secret-0123456789';
const VARS = ['ASYNQLENS_AUTH', 'ASYNQLENS_ALLOWED_HOSTS', 'ASYNQLENS_USERS', 'ASYNQLENS_SESSION_SECRET', 'ASYNQLENS_PROXY_USER_HEADER', 'ASYNQLENS_PROXY_SECRET'];
let users = '';

beforeAll(async () => {
  process.env.REDIS_URL = testRedisUrl(DB);
  users = await usersEnv([['alice', 'operator']]);
  proxy = (await import('@/proxy')).proxy;
});
afterEach(() => {
  for (const v of VARS) delete process.env[v];
});

function mode(auth: 'none' | 'login' | 'proxy', allowed?: string) {
  process.env.ASYNQLENS_AUTH = auth;
  if (allowed !== undefined) process.env.ASYNQLENS_ALLOWED_HOSTS = allowed;
  if (auth === 'login') Object.assign(process.env, { ASYNQLENS_USERS: users, ASYNQLENS_SESSION_SECRET: SECRET });
  if (auth === 'proxy') Object.assign(process.env, { ASYNQLENS_PROXY_USER_HEADER: 'x-forwarded-user', ASYNQLENS_PROXY_SECRET: PROXY_SECRET });
}

/** Credentials that pass in the current mode, so only the Host decides. */
async function credentials(): Promise<Record<string, string>> {
  if (process.env.ASYNQLENS_AUTH === 'login') return { cookie: await sessionCookie('alice', 'operator') };
  if (process.env.ASYNQLENS_AUTH === 'proxy') return { 'x-forwarded-user': 'alice', 'x-asynqlens-proxy-secret': PROXY_SECRET };
  return {};
}

const send = async (host: string, path = '/api/queues', headers: Record<string, string> = {}) =>
  proxy(new NextRequest(`http://${host}${path}`, { headers: { host, ...(await credentials()), ...headers } }));
const served = (res: Response) => res.headers.get('x-middleware-next') === '1';

describe('authentication off', () => {
  it('serves loopback names on any port', async () => {
    mode('none');
    for (const host of ['localhost', 'localhost:8080', '127.0.0.1:8080', '[::1]:8080', 'console.localhost:3000', 'LOCALHOST.', '127.0.0.1']) {
      expect(served((await send(host))), host).toBe(true);
    }
  });

  it('answers any other name with 421 naming ASYNQLENS_ALLOWED_HOSTS: JSON for the API, text for pages', async () => {
    mode('none');
    const api = (await send('rebind.attacker.example:8080'));
    expect(api.status).toBe(421);
    const body = (await api.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('misdirected_request');
    expect(body.error.message).toContain('"rebind.attacker.example"');
    expect(body.error.message).toContain('ASYNQLENS_ALLOWED_HOSTS');
    const page = (await send('rebind.attacker.example', '/queues/default'));
    expect(page.status).toBe(421);
    expect(page.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await page.text()).toContain('ASYNQLENS_ALLOWED_HOSTS');
    // Every path, the public ones too, and mutations: the request never reaches a route.
    for (const path of ['/login', '/api/auth/login', '/api/health', '/metrics', '/api/queues/default/pause']) {
      expect((await send('10.0.0.5:8080', path)).status, path).toBe(421);
    }
    // Names that only look like loopback.
    for (const host of ['localhost.attacker.example', '127.0.0.1.nip.io', 'notlocalhost', '0.0.0.0']) expect((await send(host)).status, host).toBe(421);
  });

  it('serves the listed names and wildcards, and nothing that merely ends like them', async () => {
    mode('none', ' Console.Example.com , *.corp.example.net,10.0.0.5,[fd00::1]');
    for (const host of ['console.example.com', 'console.example.com:443', 'a.corp.example.net', 'x.y.corp.example.net:8080', '10.0.0.5:8080', '[fd00::1]:8080', 'localhost']) {
      expect(served((await send(host))), host).toBe(true);
    }
    for (const host of ['example.com', 'corp.example.net', 'evilcorp.example.net', 'console.example.com.attacker.example', '10.0.0.6']) {
      expect((await send(host)).status, host).toBe(421);
    }
  });

  it('checks X-Forwarded-Host too: a rebinding page may send it, and a proxy names the public host there', async () => {
    mode('none', 'console.example.com');
    expect((await send('localhost', '/api/queues', { 'x-forwarded-host': 'rebind.attacker.example' })).status).toBe(421);
    expect(served((await send('127.0.0.1:8080', '/api/queues', { 'x-forwarded-host': 'console.example.com' })))).toBe(true);
  });

  it('"*" turns the check off, for a proxy that already pins the Host', async () => {
    mode('none', '*');
    expect(served((await send('anything.example')))).toBe(true);
  });
});

describe.each(['login', 'proxy'] as const)('%s mode', (auth) => {
  it('serves any Host while ASYNQLENS_ALLOWED_HOSTS is unset', async () => {
    mode(auth);
    expect(served((await send('console.example.com')))).toBe(true);
    expect(served((await send('10.0.0.5:8080', '/queues/q')))).toBe(true);
  });

  it('enforces ASYNQLENS_ALLOWED_HOSTS once set, before authentication (loopback stays served)', async () => {
    mode(auth, 'console.example.com');
    expect(served((await send('console.example.com')))).toBe(true);
    expect(served((await send('localhost:8080')))).toBe(true);
    const other = (await send('rebind.attacker.example'));
    expect(other.status).toBe(421);
    expect(((await other.json()) as { error: { message: string } }).error.message).toContain('ASYNQLENS_ALLOWED_HOSTS');
    // Without credentials the Host is still what is refused first.
    expect((await proxy(new NextRequest('http://rebind.attacker.example/api/queues', { headers: { host: 'rebind.attacker.example' } }))).status).toBe(421);
    expect((await proxy(new NextRequest('http://console.example.com/api/queues', { headers: { host: 'console.example.com' } }))).status).toBe(401);
  });
});

describe('configuration', () => {
  it('a malformed ASYNQLENS_ALLOWED_HOSTS or ASYNQLENS_FRAME_ANCESTORS stops the start, naming the variable and the entry', () => {
    mode('none');
    expect(configurationProblem()).toBeNull();
    for (const bad of ['https://console.example.com', 'console.example.com/path', '*.', 'a b']) {
      process.env.ASYNQLENS_ALLOWED_HOSTS = bad;
      expect(configurationProblem(), bad).toMatch(/^ASYNQLENS_ALLOWED_HOSTS: ".+" is not a host name/);
    }
    delete process.env.ASYNQLENS_ALLOWED_HOSTS;
    for (const bad of ["'self'; script-src *", "'none' 'self'", 'https://a.example,https://b.example']) {
      process.env.ASYNQLENS_FRAME_ANCESTORS = bad;
      expect(configurationProblem(), bad).toMatch(/^ASYNQLENS_FRAME_ANCESTORS: /);
    }
    delete process.env.ASYNQLENS_FRAME_ANCESTORS;
  });
});
