/**
 * The production launcher (bin/asynqlens.mjs over the standalone build): its options and their
 * errors, loopback-only without authentication, configuration mistakes that stop the start,
 * and the console served under a base path (the build scripts/test.sh makes in .next-asynq).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './support/app-server';
import { eventually, type Spec } from './support/harness';

export const phase = 'read';

const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'asynqlens.mjs');

/** Env without any of the suite's own settings, so each case states what it sets. */
function cleanEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('ASYNQLENS_') && k !== 'REDIS_URL') env[k] = v;
  return { ...env, NEXT_TELEMETRY_DISABLED: '1', ...extra };
}

function runLauncher(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], { env: cleanEnv(env) as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** Loopback TCP listeners on `port` from /proc/net/tcp{,6}: the addresses the server bound. */
function listeners(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const found: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state === '0A' && local?.endsWith(`:${hexPort}`)) found.push(local.split(':')[0]!);
    }
  }
  return found;
}

const specs: Spec[] = [
  {
    name: 'launcher: --help lists every option; bad options, ports and base paths stop it with a clear line',
    run: async () => {
      const help = runLauncher(['--help']);
      assert.equal(help.code, 0);
      for (const flag of ['--redis-url', '--sentinels', '--cluster-nodes', '--tls-ca', '--base-path', '--read-only', '--auth', '--users-file', '--port']) {
        assert.ok(help.out.includes(flag), `--help mentions ${flag}`);
      }
      const unknown = runLauncher(['--redis-host', 'x']);
      assert.equal(unknown.code, 2);
      assert.match(unknown.out, /Unknown option '--redis-host'/);
      const port = runLauncher(['--port', '70000', '--auth', 'none']);
      assert.equal(port.code, 2);
      assert.match(port.out, /--port \/ PORT: "70000" is not a port number/);
      const base = runLauncher(['--base-path', '/elsewhere', '--auth', 'none']);
      assert.equal(base.code, 2);
      assert.match(base.out, /this build serves under "\/"; rebuild with ASYNQLENS_BASE_PATH=\/elsewhere/);
      const auth = runLauncher(['--auth', 'maybe']);
      assert.equal(auth.code, 2);
      assert.match(auth.out, /--auth \/ ASYNQLENS_AUTH: "maybe" must be login, proxy or none/);
      await Promise.resolve();
    },
  },
  {
    name: 'launcher: configuration mistakes stop the server at start, naming the setting',
    run: async () => {
      const port = String(await freePort());
      const cases: [Record<string, string>, RegExp][] = [
        [{ ASYNQLENS_AUTH: 'none', ASYNQLENS_REDIS_SENTINELS: '127.0.0.1:26379' }, /ASYNQLENS_REDIS_SENTINEL_MASTER: required with ASYNQLENS_REDIS_SENTINELS/],
        [{ ASYNQLENS_AUTH: 'none', ASYNQLENS_REDIS_CLUSTER_NODES: '127.0.0.1' }, /ASYNQLENS_REDIS_CLUSTER_NODES: "127.0.0.1" is not host:port/],
        [{ ASYNQLENS_AUTH: 'none', REDIS_URL: 'http://127.0.0.1:6379' }, /REDIS_URL: the scheme must be redis:\/\/ or rediss:\/\//],
        // Authentication is on by default, and a login without users cannot work.
        [{}, /ASYNQLENS_USERS/],
      ];
      for (const [env, message] of cases) {
        const r = runLauncher(['--port', port], env);
        assert.equal(r.code, 1, `exit 1 with ${JSON.stringify(env)}: ${r.out}`);
        assert.match(r.out, /asynqlens: configuration error: /);
        assert.match(r.out, message);
      }
    },
  },
  {
    name: 'launcher: with authentication off it listens on loopback only',
    run: async ({ baseUrl }) => {
      const port = await freePort();
      const redisUrl = `redis://127.0.0.1:${new URL(baseUrl).port}`; // unused: nothing is requested from Redis
      const child = spawn(process.execPath, [bin, '--auth', 'none', '--port', String(port)], { env: cleanEnv({ REDIS_URL: redisUrl }) as NodeJS.ProcessEnv, stdio: 'ignore' });
      try {
        await eventually('the server to listen', () => Promise.resolve(listeners(port).length > 0), 20_000);
        assert.deepEqual(listeners(port), ['0100007F'], 'bound to 127.0.0.1 and nothing else');
        const live = await fetch(`http://127.0.0.1:${port}/api/health/live`);
        assert.equal(live.status, 200);
      } finally {
        child.kill('SIGTERM');
      }
    },
  },
  {
    name: 'standalone: the build folder copied elsewhere runs as a program with node alone and serves the console',
    run: async ({ baseUrl }) => {
      const dir = mkdtempSync(join(tmpdir(), 'asynqlens-standalone-'));
      const port = await freePort();
      // Outside the checkout, so no node_modules of the project can be found from there.
      cpSync(join(root, '.next', 'standalone'), dir, { recursive: true });
      const redisUrl = `redis://127.0.0.1:${new URL(baseUrl).port}`;
      const child = spawn(join(dir, 'bin', 'asynqlens.mjs'), ['--auth', 'none', '--port', String(port)], {
        cwd: tmpdir(),
        env: cleanEnv({ REDIS_URL: redisUrl }) as NodeJS.ProcessEnv,
        stdio: 'ignore',
      });
      try {
        await eventually('the copied server to answer', async () => (await fetch(`http://127.0.0.1:${port}/api/health/live`)).ok, 20_000);
        const html = await (await fetch(`http://127.0.0.1:${port}/`)).text();
        const script = /src="(\/_next\/static\/[^"]+\.js)"/.exec(html)?.[1];
        assert.ok(script, 'the overview page references its scripts');
        assert.equal((await fetch(`http://127.0.0.1:${port}${script}`)).status, 200, 'browser assets are in the folder');
      } finally {
        child.kill('SIGTERM');
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
  {
    name: 'base path: the console under /asynq — pages, links and API calls all stay under the prefix',
    run: async ({ startApp, newPage, screenshot }) => {
      const app = await startApp({ ASYNQLENS_DIST_DIR: '.next-asynq', ASYNQLENS_BASE_PATH: '/asynq' });
      try {
        const { page } = await newPage({ baseUrl: app.url });
        const api: { url: string; status: number }[] = [];
        page.on('response', (res) => {
          const u = new URL(res.url());
          if (u.pathname.includes('/api/')) api.push({ url: u.pathname, status: res.status() });
        });
        await page.goto('/asynq');
        await page.getByRole('table', { name: 'Queues' }).getByRole('link', { name: 'critical', exact: true }).click();
        await page.waitForURL(/\/asynq\/queues\/critical/);
        await page.getByRole('table', { name: /tasks$/ }).first().waitFor();
        await eventually('API calls from the queue page', () => Promise.resolve(api.length > 0));
        assert.ok(api.every((c) => c.url.startsWith('/asynq/api/')), `every API call under /asynq: ${JSON.stringify(api)}`);
        assert.ok(api.every((c) => c.status < 400), `no failed API call: ${JSON.stringify(api.filter((c) => c.status >= 400))}`);
        const outside = await fetch(`${app.url}/api/queues`);
        assert.equal(outside.status, 404, 'nothing is served outside the base path');
        assert.equal((await fetch(`${app.url}/asynq/metrics`)).status, 200, '/metrics under the prefix');
        await screenshot(page, 'base-path');
      } finally {
        await app.stop();
      }
    },
  },
];

export default specs;
