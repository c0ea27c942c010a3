/**
 * The browser side of the security headers and the Host rule: Chromium visits every page of
 * the dashboard (listed from app/(dashboard)/**\/page.tsx, so a new page is visited or this
 * spec fails) and any Content-Security-Policy violation fails it; the same under the /asynq
 * build and on the sign-in page in login mode. A page on another origin cannot frame the
 * console (and can once ASYNQLENS_FRAME_ANCESTORS names it). The built server's headers and
 * its 421 for an unknown Host, and the launcher started with --unsafe-no-auth-on-network.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join, relative, sep } from 'node:path';
import type { Page } from 'playwright-core';
import * as k from '../../lib/asynq/keys';
import { hashPassword } from '../../lib/server/auth/scrypt-hash';
import { freePort } from './support/app-server';
import { eventually, type Ctx, type Spec, type TestPage } from './support/harness';
import { SAFETY_QUEUE } from './support/seed-extra';

export const phase = 'read';

const root = join(import.meta.dirname, '..', '..');

/** Every page file under app/(dashboard), as its URL pattern: `/queues/[qname]/tasks/[taskId]`. */
function dashboardPatterns(): string[] {
  const dir = join(root, 'app', '(dashboard)');
  const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : n === 'page.tsx' ? [join(d, n)] : []));
  return walk(dir)
    .map((f) => `/${relative(dir, f).split(sep).slice(0, -1).filter((s) => !/^\(.*\)$/.test(s)).join('/')}`)
    .sort();
}

/** Concrete URLs for every dashboard page, plus the states and corners that render differently. */
async function dashboardUrls(ctx: Ctx): Promise<string[]> {
  const [taskId] = await ctx.redis.lrange(k.pendingKey('default'), 0, 0);
  assert.ok(taskId, 'a pending task in default');
  const params: Record<string, string> = { qname: 'default', taskId: encodeURIComponent(taskId) };
  const urls = dashboardPatterns().map((p) =>
    p.replace(/\[(\w+)\]/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new Error(`security.spec.ts: no value for [${name}] in ${p}: add one so the page is visited`);
      return value;
    }),
  );
  const extra = ['/queues/webhooks?state=retry', '/queues/default?state=archived', '/queues/default?state=scheduled', `/queues/${SAFETY_QUEUE}/tasks/${encodeURIComponent(ctx.seeded.xssTaskId)}`, '/no-such-page'];
  return [...urls, ...extra];
}

/** Collects CSP violations: the DOM event (reported through a binding) and Chromium's console line. */
async function watchCsp(tp: TestPage): Promise<string[]> {
  const found: string[] = [];
  await tp.context.exposeBinding('__reportCspViolation', ({ page }, v: string) => found.push(`${page.url()}: ${v}`));
  await tp.context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __reportCspViolation: (v: string) => void }).__reportCspViolation(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  tp.page.on('console', (m) => {
    if (m.type() === 'error' && /Refused to|Content Security Policy/i.test(m.text())) found.push(`${tp.page.url()}: console: ${m.text()}`);
  });
  return found;
}

/**
 * Loads `url` and waits until Next's client has started (it sets window.next): proof that the
 * nonce reached its scripts, since a blocked script never gets that far. Then a moment for lazy
 * chunks and the first polls.
 */
async function visit(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'load' });
  await eventually(`Next's client to start on ${url}`, async () => page.evaluate(() => typeof (window as unknown as { next?: { version?: string } }).next?.version === 'string'), 15_000);
  await page.waitForTimeout(600);
}

async function visitAll(ctx: Ctx, baseUrl: string, prefix: string): Promise<number> {
  const urls = await dashboardUrls(ctx);
  // Dark: the theme script (inline, nonce) must run to switch <html> from the server's light.
  const tp = await ctx.newPage({ baseUrl, colorScheme: 'dark' });
  const violations = await watchCsp(tp);
  for (const url of urls) {
    await visit(tp.page, `${prefix}${url}`);
    assert.equal(await tp.page.locator('html').getAttribute('data-theme'), 'dark', `the theme script ran on ${url}`);
  }
  assert.deepEqual(violations, [], 'CSP violations');
  assert.deepEqual(tp.errors, [], 'page errors');
  // The watcher itself: an image from elsewhere is outside the policy, so it must be reported.
  await tp.page.evaluate(() => document.body.append(Object.assign(new Image(), { src: 'http://elsewhere.invalid/pixel.png' })));
  await eventually('the watcher to report a refused image', () => Promise.resolve(violations.some((v) => /img-src blocked http:\/\/elsewhere\.invalid/.test(v))), 5000);
  console.log(`      ${urls.length} pages under ${prefix || '/'} with 0 CSP violations`);
  return urls.length;
}

/** A request with a Host header of our choosing (fetch does not let one be set). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Another site on this machine: a page at http://localhost:<its own port> (a different origin
 * from the console's http://127.0.0.1:<port>, and local, so Chromium's private-network rules
 * leave the frame to the console's own headers) that frames `consoleUrl`.
 */
async function otherSite(consoleUrl: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>other site</title><iframe src="${consoleUrl}" width="800" height="600"></iframe>`);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { origin: `http://localhost:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** What the other site's page gets: the frame's URL (a refused frame is chrome-error://), whether the console rendered in it, the console lines. */
async function tryFraming(ctx: Ctx, origin: string): Promise<{ framed: boolean; frameUrl: string; console: string[] }> {
  const tp = await ctx.newPage();
  const messages: string[] = [];
  tp.page.on('console', (m) => messages.push(m.text()));
  await tp.page.goto(`${origin}/`);
  await tp.page.locator('iframe').waitFor();
  const child = () => tp.page.frames().find((f) => f !== tp.page.mainFrame());
  await eventually('the frame to navigate', () => Promise.resolve(!['', 'about:blank'].includes(child()?.url() ?? '')));
  await tp.page.waitForTimeout(1000);
  const frame = child()!;
  const framed = frame.url().startsWith('chrome-error:') ? false : await frame.locator('main').first().isVisible();
  return { framed, frameUrl: frame.url(), console: messages };
}

const specs: Spec[] = [
  {
    name: 'CSP: every dashboard page in Chromium, with zero violations',
    run: async (ctx) => {
      await visitAll(ctx, ctx.baseUrl, '');
    },
  },
  {
    name: 'CSP: every dashboard page under the /asynq base path, with zero violations',
    run: async (ctx) => {
      const app = await ctx.startApp({ ASYNQLENS_DIST_DIR: '.next-asynq', ASYNQLENS_BASE_PATH: '/asynq' });
      try {
        await visitAll(ctx, app.url, '/asynq');
      } finally {
        await app.stop();
      }
    },
  },
  {
    name: 'CSP: the sign-in page and the first page after it, in login mode',
    run: async (ctx) => {
      const password = 'csp e2e password';
      const app = await ctx.startApp({ ASYNQLENS_AUTH: 'login', ASYNQLENS_USERS: `cara:viewer:${await hashPassword(password)}` });
      try {
        const tp = await ctx.newPage({ baseUrl: app.url });
        const violations = await watchCsp(tp);
        await visit(tp.page, '/servers');
        await tp.page.waitForURL((u) => u.pathname === '/login');
        await tp.page.getByLabel('User name').fill('cara');
        await tp.page.getByLabel('Password').fill(password);
        await tp.page.getByRole('button', { name: 'Sign in' }).click();
        await tp.page.waitForURL((u) => u.pathname === '/servers');
        await tp.page.getByTestId('account').getByText('cara').waitFor();
        await visit(tp.page, '/');
        assert.deepEqual(violations, [], 'CSP violations');
        assert.deepEqual(tp.errors, [], 'page errors');
      } finally {
        await app.stop();
      }
    },
  },
  {
    name: 'framing: a page on another origin cannot frame the console; ASYNQLENS_FRAME_ANCESTORS can allow it',
    run: async (ctx) => {
      const site = await otherSite(`${ctx.baseUrl}/`);
      try {
        const refused = await tryFraming(ctx, site.origin);
        assert.equal(refused.framed, false, 'the console is not shown inside the frame');
        assert.match(refused.frameUrl, /^chrome-error:/, 'Chromium refused the frame');
        assert.ok(refused.console.some((m) => m.includes(`violates the following Content Security Policy directive: "frame-ancestors 'none'"`)), refused.console.join('\n'));
      } finally {
        await site.close();
      }
      // The same check sees a frame that is allowed, so the refusal above is not the test's blindness.
      const app = await ctx.startApp({ ASYNQLENS_FRAME_ANCESTORS: 'http://localhost:*' });
      const allowedSite = await otherSite(`${app.url}/`);
      try {
        const allowed = await tryFraming(ctx, allowedSite.origin);
        assert.equal(allowed.framed, true, `framed once allowed (${allowed.frameUrl}): ${allowed.console.join('\n')}`);
      } finally {
        await allowedSite.close();
        await app.stop();
      }
    },
  },
  {
    name: 'headers: pages, API answers and static files of the built server; 421 for an unknown Host',
    run: async ({ baseUrl }) => {
      const page = await fetch(`${baseUrl}/queues/default`);
      const api = await fetch(`${baseUrl}/api/queues`);
      for (const [what, res] of [['page', page], ['api', api]] as const) {
        assert.equal(res.status, 200, what);
        const csp = res.headers.get('content-security-policy') ?? '';
        // A page's scripts run with its nonce; an API answer loads and runs nothing, so its policy allows nothing.
        if (what === 'page') {
          assert.match(csp, /script-src 'self' 'nonce-[A-Za-z0-9+/]+=*' 'strict-dynamic'(;|$)/, `${what}: ${csp}`);
          for (const d of ["object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'"]) assert.ok(csp.includes(d), `${what} CSP has ${d}`);
        } else {
          assert.equal(csp, "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'", what);
        }
        assert.equal(res.headers.get('x-frame-options'), 'DENY', what);
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff', what);
        assert.equal(res.headers.get('referrer-policy'), 'same-origin', what);
        assert.equal(res.headers.get('cross-origin-opener-policy'), 'same-origin', what);
        assert.equal(res.headers.get('strict-transport-security'), null, `${what}: no HSTS over http`);
      }
      // The page's scripts carry the nonce of its own header.
      const nonce = /'nonce-([^']+)'/.exec(page.headers.get('content-security-policy')!)![1]!;
      const html = await page.text();
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      assert.ok(scripts.length > 2 && scripts.every((s) => s.includes(`nonce="${nonce}"`)), `every script tag has the nonce: ${scripts.filter((s) => !s.includes(nonce)).join('\n')}`);
      const asset = /src="(\/_next\/static\/[^"]+\.js)"/.exec(html)![1]!;
      const js = await fetch(`${baseUrl}${asset}`);
      assert.equal(js.headers.get('x-content-type-options'), 'nosniff', 'static files are not sniffed');
      const https = await fetch(`${baseUrl}/api/queues`, { headers: { 'x-forwarded-proto': 'https' } });
      assert.equal(https.headers.get('strict-transport-security'), 'max-age=31536000');

      const rebind = await rawGet(`${baseUrl}/api/queues`, { host: `rebind.attacker.example:${new URL(baseUrl).port}` });
      assert.equal(rebind.status, 421);
      assert.match(rebind.body, /ASYNQLENS_ALLOWED_HOSTS/);
      const local = await rawGet(`${baseUrl}/api/queues`, { host: `localhost:${new URL(baseUrl).port}` });
      assert.equal(local.status, 200);
    },
  },
  {
    name: 'launcher: --auth none on 0.0.0.0 starts only with --unsafe-no-auth-on-network, and then answers only listed names',
    run: async ({ baseUrl }) => {
      const port = await freePort();
      const env: Record<string, string | undefined> = {};
      for (const [name, v] of Object.entries(process.env)) if (!name.startsWith('ASYNQLENS_')) env[name] = v;
      Object.assign(env, { REDIS_URL: `redis://127.0.0.1:${new URL(baseUrl).port}`, NEXT_TELEMETRY_DISABLED: '1' });
      let log = '';
      const child = spawn(
        process.execPath,
        [join(root, 'bin', 'asynqlens.mjs'), '--auth', 'none', '--host', '0.0.0.0', '--port', String(port), '--unsafe-no-auth-on-network', '--allowed-hosts', 'console.example.test'],
        { env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child.stderr.on('data', (c: Buffer) => (log += c.toString()));
      child.stdout.on('data', (c: Buffer) => (log += c.toString()));
      try {
        await eventually('the server to answer', async () => (await fetch(`http://127.0.0.1:${port}/api/health/live`)).ok, 20_000);
        assert.match(log, /WARNING: UNSAFE: authentication is off and the console listens on 0\.0\.0\.0/);
        assert.equal((await rawGet(`http://127.0.0.1:${port}/api/health/live`, { host: `console.example.test:${port}` })).status, 200);
        assert.equal((await rawGet(`http://127.0.0.1:${port}/api/health/live`, { host: `10.9.8.7:${port}` })).status, 421);
      } finally {
        child.kill('SIGTERM');
      }
    },
  },
];

export default specs;
