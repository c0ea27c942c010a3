/**
 * The security headers proxy.ts puts on every answer (let through, redirected, refused), the
 * per-request CSP nonce it hands to the renderer, frame-ancestors from ASYNQLENS_FRAME_ANCESTORS,
 * and HSTS only over https. The e2e suite (tests/e2e/security.spec.ts) checks the same headers
 * on the built server's real responses and that Chromium finds nothing to refuse.
 */
import { NextRequest } from 'next/server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SECRET, usersEnv } from '../auth/support';

let proxy: (req: NextRequest) => Promise<Response>;
let users = '';
const VARS = ['ASYNQLENS_AUTH', 'ASYNQLENS_USERS', 'ASYNQLENS_SESSION_SECRET', 'ASYNQLENS_FRAME_ANCESTORS', 'ASYNQLENS_ALLOWED_HOSTS'];
const nodeEnv = process.env.NODE_ENV;

beforeAll(async () => {
  users = await usersEnv([['alice', 'operator']]);
  proxy = (await import('@/proxy')).proxy;
});
afterEach(() => {
  for (const v of VARS) delete process.env[v];
  (process.env as Record<string, string | undefined>).NODE_ENV = nodeEnv;
});

const get = (url: string, headers: Record<string, string> = {}) => proxy(new NextRequest(url, { headers }));

/** The directives of a CSP as name → sources. */
function directives(csp: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (csp ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name, sources);
  }
  return map;
}

/** What a page needs (its own scripts by nonce) or, for anything else, nothing at all. */
function expectBaseline(res: Response, what: string, kind: 'page' | 'scriptless') {
  const h = res.headers;
  expect(h.get('x-content-type-options'), what).toBe('nosniff');
  expect(h.get('referrer-policy'), what).toBe('same-origin');
  expect(h.get('cross-origin-opener-policy'), what).toBe('same-origin');
  expect(h.get('cross-origin-resource-policy'), what).toBe('same-origin');
  expect(h.get('x-frame-options'), what).toBe('DENY');
  const csp = directives(h.get('content-security-policy'));
  expect(csp.get('frame-ancestors'), what).toEqual(["'none'"]);
  if (kind === 'scriptless') {
    expect(csp.get('default-src'), what).toEqual(["'none'"]);
    expect(csp.get('base-uri'), what).toEqual(["'none'"]);
    expect(csp.get('script-src'), what).toBeUndefined();
  } else {
    expect(csp.get('object-src'), what).toEqual(["'none'"]);
    expect(csp.get('base-uri'), what).toEqual(["'self'"]);
    expect(csp.get('default-src'), what).toEqual(["'self'"]);
    const script = csp.get('script-src') ?? [];
    expect(script, what).toContain("'strict-dynamic'");
    expect(script.some((s) => s.startsWith("'nonce-")), what).toBe(true);
    expect(script, what).not.toContain("'unsafe-inline'");
    expect(script, what).not.toContain("'unsafe-eval'");
  }
  expect(h.get('strict-transport-security'), what).toBeNull();
}

describe('every answer carries the headers', () => {
  it('API and pages let through, with authentication off', async () => {
    process.env.ASYNQLENS_AUTH = 'none';
    for (const path of ['/api/queues', '/api/queues/q/tasks?state=pending', '/metrics', '/', '/queues/q', '/login', '/api/health']) {
      const res = (await get(`http://localhost${path}`));
      expect(res.headers.get('x-middleware-next'), path).toBe('1');
      expectBaseline(res, path, path.startsWith('/api') || path === '/metrics' ? 'scriptless' : 'page');
    }
  });

  it('refusals too: 401, the redirect to /login, 421 and 503 auth_misconfigured', async () => {
    Object.assign(process.env, { ASYNQLENS_AUTH: 'login', ASYNQLENS_USERS: users, ASYNQLENS_SESSION_SECRET: SECRET });
    const unauthorized = (await get('http://localhost/api/queues'));
    expect(unauthorized.status).toBe(401);
    expectBaseline(unauthorized, '401', 'scriptless');
    const redirect = (await get('http://localhost/queues/q'));
    expect(redirect.status).toBe(307);
    expectBaseline(redirect, 'redirect', 'page');
    process.env.ASYNQLENS_ALLOWED_HOSTS = 'console.example.com';
    const misdirected = (await get('http://other.example/api/queues', { host: 'other.example' }));
    expect(misdirected.status).toBe(421);
    expectBaseline(misdirected, '421', 'scriptless');
    delete process.env.ASYNQLENS_USERS;
    const broken = (await get('http://localhost/api/queues'));
    expect(broken.status).toBe(503);
    expectBaseline(broken, '503', 'scriptless');
  });
});

describe('the nonce', () => {
  it('is fresh per request and handed to the renderer in the request headers, replacing what a client sent', async () => {
    process.env.ASYNQLENS_AUTH = 'none';
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const res = (await get('http://localhost/queues/q', { 'x-nonce': 'chosen-by-client', 'content-security-policy': "script-src 'nonce-chosen'" }));
      const nonce = /'nonce-([A-Za-z0-9+/]+={0,2})'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/); // 16 random bytes
      expect(res.headers.get('x-middleware-request-x-nonce')).toBe(nonce);
      expect(res.headers.get('x-middleware-request-content-security-policy')).toBe(res.headers.get('content-security-policy'));
      seen.add(nonce!);
    }
    expect(seen.size).toBe(20);
  });
});

describe('API requests', () => {
  it('pass untouched: a policy without a nonce, and no request headers copied back for the renderer', async () => {
    process.env.ASYNQLENS_AUTH = 'none';
    for (const path of ['/api/queues', '/metrics', '/api/health/live']) {
      const res = await get(`http://localhost${path}`, { 'x-nonce': 'chosen-by-client' });
      expect(res.headers.get('x-middleware-next'), path).toBe('1');
      expect(res.headers.get('content-security-policy'), path).not.toMatch(/nonce/);
      expect(directives(res.headers.get('content-security-policy')).get('default-src'), path).toEqual(["'none'"]);
      expect(res.headers.get('x-middleware-override-headers'), path).toBeNull();
      expect([...res.headers.keys()].filter((h) => h.startsWith('x-middleware-request-')), path).toEqual([]);
    }
  });
});

describe('settings', () => {
  it("frame-ancestors follows ASYNQLENS_FRAME_ANCESTORS; X-Frame-Options matches it or steps aside", async () => {
    process.env.ASYNQLENS_AUTH = 'none';
    process.env.ASYNQLENS_FRAME_ANCESTORS = "'self'";
    let res = (await get('http://localhost/'));
    expect(directives(res.headers.get('content-security-policy')).get('frame-ancestors')).toEqual(["'self'"]);
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    process.env.ASYNQLENS_FRAME_ANCESTORS = "'self' https://grafana.example.com";
    res = (await get('http://localhost/'));
    expect(directives(res.headers.get('content-security-policy')).get('frame-ancestors')).toEqual(["'self'", 'https://grafana.example.com']);
    expect(res.headers.get('x-frame-options')).toBeNull();
  });

  it('Strict-Transport-Security only when the request came over https (directly or per X-Forwarded-Proto)', async () => {
    process.env.ASYNQLENS_AUTH = 'none';
    expect((await get('https://localhost/')).headers.get('strict-transport-security')).toBe('max-age=31536000');
    expect((await get('http://localhost/api/queues', { 'x-forwarded-proto': 'https' })).headers.get('strict-transport-security')).toBe('max-age=31536000');
    expect((await get('http://localhost/api/queues', { 'x-forwarded-proto': 'http' })).headers.get('strict-transport-security')).toBeNull();
    expect((await get('http://localhost/')).headers.get('strict-transport-security')).toBeNull();
  });

  it("'unsafe-eval' only under next dev", async () => {
    process.env.ASYNQLENS_AUTH = 'none';
    (process.env as Record<string, string>).NODE_ENV = 'development';
    expect(directives((await get('http://localhost/')).headers.get('content-security-policy')).get('script-src')).toContain("'unsafe-eval'");
    (process.env as Record<string, string>).NODE_ENV = 'production';
    expect(directives((await get('http://localhost/')).headers.get('content-security-policy')).get('script-src')).not.toContain("'unsafe-eval'");
  });
});
