/**
 * `npm run demo`: a private Redis on a free loopback port (data in a temp folder), sample
 * tasks in every state, and the dashboard on http://localhost:8080. Ctrl-C stops everything.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startRedisServer } from './support/redis-server';
import { seedSampleData } from './demo/sample-data';

const root = join(import.meta.dirname, '..');
const port = Number(process.env.PORT ?? 8080);
const nextBin = join(root, 'node_modules', 'next', 'dist', 'bin', 'next');

/** Newest modification time under the app's source folders, to decide whether to rebuild. */
function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const d of ['app', 'components', 'lib']) if (existsSync(join(root, d))) walk(join(root, d));
  return newest;
}

function buildIfStale(): void {
  const buildId = join(root, '.next', 'BUILD_ID');
  if (existsSync(buildId) && statSync(buildId).mtimeMs > newestSource()) return;
  console.log('Building the dashboard (once; later runs reuse the build)…');
  const r = spawnSync(process.execPath, [nextBin, 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

async function main(): Promise<void> {
  buildIfStale();
  const redis = await startRedisServer({ label: 'demo' });
  const client = new Redis(redis.url);
  await seedSampleData(client);
  await client.quit();

  // Node runs Next's CLI directly (not through npx) so a signal reaches the server itself.
  const app = spawn(process.execPath, [nextBin, 'start', '-p', String(port)], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, REDIS_URL: redis.url },
  });
  console.log(`\n  asynqlens demo: http://localhost:${port}   (Redis at ${redis.url}; Ctrl-C stops both)\n`);

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    app.kill('SIGTERM');
    await redis.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  app.on('exit', (code) => void stop(code ?? 0));
}

void main();
