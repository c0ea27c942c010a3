/**
 * The console as npm users get it: scripts/pack-console.mjs packs the standalone build, the
 * tarball is installed into an empty project outside the checkout (offline, with an empty npm
 * cache: everything the server needs must be inside the tarball), and `npx asynqlens` serves a
 * private Redis's queues to the browser. A file the server needs that the tarball lacks shows as
 * a failed pack, install, start, page or API call.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { seedSampleData } from '../../scripts/demo/sample-data';
import { startRedisServer } from '../../scripts/support/redis-server';
import { freePort } from './support/app-server';
import { eventually, type Spec } from './support/harness';

export const phase = 'read';

const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
/** The tarball today is about 7 MB; past this, something that does not belong was packed. */
const MAX_TARBALL_BYTES = 12 * 1024 * 1024;

/**
 * The environment of a user's shell: none of the suite's settings, and no PATH entry into the
 * checkout (`npm test` puts its node_modules/.bin there), so npx finds only what was installed.
 * npm runs offline with an empty cache of its own: an install or an npx that needed the registry
 * (a dependency left out of the bundle, a program not installed) fails instead.
 */
function userEnv(npmCache: string): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('ASYNQLENS_') && !k.startsWith('npm_') && k !== 'REDIS_URL') env[k] = v;
  env.PATH = (env.PATH ?? '').split(delimiter).filter((p) => !p.startsWith(root)).join(delimiter);
  return { ...env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_offline: 'true', npm_config_cache: npmCache };
}

/** Ends the npx process group (npm does not pass a signal on to the program it runs). */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  process.kill(-child.pid, 'SIGTERM');
  const t = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 5000);
  await exited;
  clearTimeout(t);
}

const specs: Spec[] = [
  {
    name: 'npm package: the packed console installs from its tarball alone and `npx asynqlens` serves the queues',
    run: async ({ newPage }) => {
      const work = mkdtempSync(join(tmpdir(), 'asynqlens-npm-'));
      const redisServer = await startRedisServer({ label: 'npm-package' });
      const redis = new Redis(redisServer.url, { maxRetriesPerRequest: 3 });
      let child: ChildProcess | undefined;
      try {
        await seedSampleData(redis);
        const times: string[] = [];
        let t = Date.now();
        const lap = (what: string) => {
          times.push(`${what} ${((Date.now() - t) / 1000).toFixed(1)} s`);
          t = Date.now();
        };

        const packed = await run(process.execPath, [join(root, 'scripts', 'pack-console.mjs'), '--out', work], { cwd: root, encoding: 'utf8' });
        const tarball = /packed (\S+\.tgz)/.exec(packed.stdout)?.[1];
        assert.ok(tarball, `pack-console names its tarball: ${packed.stdout}`);
        const bytes = statSync(tarball).size;
        assert.ok(bytes < MAX_TARBALL_BYTES, `tarball is ${bytes} bytes, over ${MAX_TARBALL_BYTES}`);
        const entries = (await run('tar', ['-tzf', tarball], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })).stdout.split('\n').filter(Boolean);
        for (const needed of ['package/package.json', 'package/server.js', 'package/bin/asynqlens.mjs', 'package/bin/api-lane.mjs', 'package/.next/BUILD_ID', 'package/node_modules/next/package.json', 'package/node_modules/ioredis/package.json']) {
          assert.ok(entries.includes(needed), `the tarball holds ${needed}`);
        }
        const devOnly = entries.filter((e) => /^package\/(tests|bench|docs|scripts|app|lib|components|\.ci)\/|\.(spec|test)\.[cm]?[jt]sx?$|(^|\/)(\.env[^/]*|package-lock\.json|tsconfig\.json)$|\.png$/.test(e));
        assert.deepEqual(devOnly, [], 'no sources, tests, bench, docs or screenshots in the tarball');
        lap('pack');

        const project = join(work, 'project');
        const env = userEnv(join(work, 'npm-cache'));
        mkdirSync(project);
        writeFileSync(join(project, 'package.json'), '{ "name": "try-asynqlens", "private": true }\n');
        await run('npm', ['install', tarball, '--loglevel', 'error'], { cwd: project, env, encoding: 'utf8' });
        lap('install');

        const help = await run('npx', ['--yes=false', 'asynqlens', '--help'], { cwd: project, env, encoding: 'utf8' });
        assert.match(help.stdout, /^Usage: asynqlens \[options\]/);
        assert.match(help.stdout, /--redis-url <value>/);

        const port = await freePort();
        const url = `http://127.0.0.1:${port}`;
        let log = '';
        child = spawn('npx', ['--yes=false', 'asynqlens', '--redis-url', redisServer.url, '--auth', 'none', '--port', String(port)], {
          cwd: project,
          env,
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        child.stdout?.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-4000)));
        child.stderr?.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-4000)));
        const server = child;
        const health = async () => server.exitCode !== null || (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) })).ok;
        await eventually('the installed console to answer or exit', health, 30_000).catch((err: unknown) => {
          throw new Error(`${String(err)}\n${log}`);
        });
        assert.equal(server.exitCode, null, `npx asynqlens exited:\n${log}`);
        lap('start');

        const res = await fetch(`${url}/api/queues`, { signal: AbortSignal.timeout(10_000) });
        assert.equal(res.status, 200, `GET /api/queues: ${res.status}\n${log}`);
        const { queues } = (await res.json()) as { queues: { queue: string; pending: number; active: number }[] };
        const critical = queues.find((q) => q.queue === 'critical');
        assert.ok(critical, `the seeded queue "critical" is listed: ${JSON.stringify(queues.map((q) => q.queue))}`);
        assert.equal(critical.pending, await redis.llen('asynq:{critical}:pending'));
        assert.equal(critical.active, await redis.llen('asynq:{critical}:active'));

        const { page, errors } = await newPage({ baseUrl: url });
        const assets: { url: string; status: number }[] = [];
        page.on('response', (r) => {
          if (r.url().includes('/_next/static/')) assets.push({ url: r.url(), status: r.status() });
        });
        await page.goto('/');
        await page.getByRole('table', { name: 'Queues' }).getByRole('link', { name: 'critical', exact: true }).waitFor();
        assert.ok(assets.length > 0 && assets.every((a) => a.status === 200), `browser assets served from the package: ${JSON.stringify(assets.filter((a) => a.status !== 200))}`);
        assert.deepEqual(errors, []);
        lap('page');
        console.log(`      tarball ${(bytes / 1024 / 1024).toFixed(1)} MB, ${entries.length} files; ${times.join(', ')}`);
      } finally {
        if (child) await stopGroup(child);
        redis.disconnect();
        await redisServer.stop();
        rmSync(work, { recursive: true, force: true });
      }
    },
  },
];

export default specs;
