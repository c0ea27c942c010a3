/**
 * Runs the production build through the product's own launcher (bin/asynqlens.mjs over the
 * standalone server) on a free loopback port against the private Redis.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const a = probe.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface AppServer {
  url: string;
  stop: () => Promise<void>;
}

export async function startApp(redisUrl: string, env: Record<string, string> = {}): Promise<AppServer> {
  // A spec may run another build (ASYNQLENS_DIST_DIR) under a base path (ASYNQLENS_BASE_PATH).
  const distDir = env.ASYNQLENS_DIST_DIR ?? '.next';
  const basePath = env.ASYNQLENS_BASE_PATH ?? '';
  if (!existsSync(join(root, distDir, 'standalone', 'bin', 'asynqlens.mjs'))) {
    throw new Error(`No standalone build in ${distDir}/standalone: run \`npm run build\` first (scripts/test.sh does).`);
  }
  const port = await freePort();
  // The launcher as a program, as `npm start` and `npx asynqlens` run it (its shebang sets Node's flags).
  const child: ChildProcess = spawn(join(root, 'bin', 'asynqlens.mjs'), ['--host', '127.0.0.1', '--port', String(port)], {
    cwd: root,
    // Authentication off unless a spec's env turns it on (login.spec.ts).
    env: { ...process.env, ASYNQLENS_AUTH: 'none', ASYNQLENS_AUDIT: 'off', ...env, REDIS_URL: redisUrl, NEXT_TELEMETRY_DISABLED: '1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-4000)));
  child.stderr?.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`asynqlens exited with ${child.exitCode}:\n${log}`);
    const ok = await fetch(`${url}${basePath}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`asynqlens did not answer within 30 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    },
  };
}
