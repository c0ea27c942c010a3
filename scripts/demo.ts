/**
 * `npm run demo`: a private Redis on a free loopback port (data in a temp folder), sample
 * tasks in every state, a live application processing and producing tasks on it (our task
 * server, a scheduler, clients, a worker that crashes now and then), and the dashboard on
 * http://127.0.0.1:8080. Ctrl-C stops everything.
 *
 * Flags: --port N        the dashboard's port (default $PORT, else 8080)
 *        --no-web        run Redis and the application only (no dashboard build/start)
 *        --check[=SECS]  after SECS (default 60) verify every state, failure kind, lock
 *                        situation, server and scheduler is present and still changing; exit 0/1
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRedis } from '../lib/asynq/redis';
import { standaloneBuildIsFresh } from './support/standalone-build';
import { startRedisServer } from './support/redis-server';
import { DEMO_QUEUES, startDemoApp } from './demo/app';
import { demoMux } from './demo/handlers';
import { census, describe, missing } from './demo/check';
import { seedSampleData } from './demo/sample-data';
import { parseDemoArgs } from './demo/options';

const root = join(import.meta.dirname, '..');
const nextBin = join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const { port, web, checkAfterSeconds } = (() => {
  try {
    return parseDemoArgs(process.argv.slice(2), { PORT: process.env.PORT });
  } catch (err) {
    console.error(`npm run demo: ${(err as Error).message}`);
    process.exit(2);
  }
})();

function buildIfStale(): void {
  if (standaloneBuildIsFresh()) return;
  console.log('Building the dashboard (once; later runs reuse the build)…');
  for (const step of [[nextBin, 'build'], [join(root, 'scripts', 'finish-build.mjs')]]) {
    const r = spawnSync(process.execPath, step, { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}

/** Resolves with `p`, or after `ms` whatever happened to it. */
const within = (p: Promise<unknown>, ms: number) => Promise.race([p.catch(() => {}), new Promise((r) => setTimeout(r, ms))]);

async function main(): Promise<void> {
  if (web) buildIfStale();
  const redis = await startRedisServer({ label: 'demo' });
  // redis-server.ts kills Redis on the first SIGINT/SIGTERM; the demo owns the exit instead, so
  // the task server can shut down (and requeue) while Redis is still there. Its exit hook
  // still guarantees Redis never outlives this process.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.removeAllListeners(signal);
  const client = createRedis({ url: redis.url });
  await seedSampleData(client);
  const demo = await startDemoApp(client, redis.url);

  let app: ChildProcess | null = null;
  if (web) {
    // The fleet's worker group as a routing file declares it: the queues the current release
    // consumes and the patterns it registers (the older release publishes its own).
    const routingFile = join(redis.dir, 'routing.json');
    const shop = { name: 'shop', queues: Object.keys(DEMO_QUEUES), patterns: demoMux(client).patterns(), emits: ['notify:batch'] };
    writeFileSync(routingFile, JSON.stringify({ groups: [shop] }, null, 2));
    // The product's own launcher, run as a program (not through npm) so a signal reaches the
    // server itself. The demo is a private sandbox: no login, and so loopback only.
    app = spawn(join(root, 'bin', 'asynqlens.mjs'), ['--auth', 'none', '--host', '127.0.0.1', '--port', String(port)], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, REDIS_URL: redis.url, ASYNQLENS_ROUTING_FILE: routingFile },
    });
    console.log(`\n  asynqlens demo: http://127.0.0.1:${port}   (Redis at ${redis.url}; no login, loopback only; Ctrl-C stops everything)\n`);
  } else {
    console.log(`\n  asynqlens demo application on ${redis.url} (no dashboard; Ctrl-C stops everything)\n`);
  }

  const status = setInterval(() => {
    void census(client).then(
      (c) => console.log(`  demo: ${describe(c)} | client: ${JSON.stringify(demo.stats)}`),
      () => {},
    );
  }, 15_000);

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    clearInterval(status);
    console.log('\n  demo: stopping the application, the dashboard and Redis…');
    // A terminal Ctrl-C also reaches redis-server itself, so Redis may already be gone: the
    // shutdown is bounded instead of waiting on a dead connection.
    await within(demo.stop(), 12_000);
    app?.kill('SIGTERM');
    client.disconnect();
    await redis.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  app?.on('exit', (code) => void stop(code ?? 0));

  if (checkAfterSeconds !== null) {
    setTimeout(() => {
      void (async () => {
        const first = await census(client);
        console.log(`  check after ${checkAfterSeconds} s: ${describe(first)}`);
        const lacking = missing(first);
        await new Promise((r) => setTimeout(r, 10_000));
        const second = await census(client);
        if (second.processed <= first.processed) lacking.push('processed counters moving');
        console.log(lacking.length === 0 ? '  check: OK — every state, failure kind and lock situation is present and changing' : `  check: MISSING ${lacking.join('; ')}`);
        await stop(lacking.length === 0 ? 0 : 1);
      })();
    }, checkAfterSeconds * 1000);
  }
}

void main();
