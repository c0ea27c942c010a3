/**
 * What the UI benchmark runs against: the production build (rebuilt first when missing or older
 * than the sources, as scripts/demo.ts does), `next start` on the bench's Redis with the default
 * settings, and the distribution's Chromium as the e2e suite launches it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpus as osCpus } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { standaloneBuildIsFresh } from '../scripts/support/standalone-build';
import { startApp, type AppServer } from '../tests/e2e/support/app-server';

const root = join(import.meta.dirname, '..');

function runNextBuild(): Promise<{ code: number | null; log: string }> {
  const child = spawn(process.execPath, [join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
    cwd: root,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-6000)));
  child.stderr.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-6000)));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, log })));
}

const BUSY = 'Another next build process is already running';
const BUSY_WAIT_MS = 5 * 60_000;

/**
 * Runs `next build` when .next/standalone is missing or older than the sources; says which. A
 * build someone else is running in this tree (Next's lock on .next) is waited for, then the
 * staleness checked again.
 */
export async function buildIfStale(): Promise<string> {
  const deadline = Date.now() + BUSY_WAIT_MS;
  for (;;) {
    if (standaloneBuildIsFresh()) return 'the existing production build (newer than app/, components/, lib/)';
    console.log('  building the app (`npm run build`: .next/standalone is missing or older than the sources)…');
    const started = performance.now();
    const { code, log } = await runNextBuild();
    if (code !== 0 && log.includes(BUSY) && Date.now() < deadline) {
      console.log('  another `next build` is running in this tree; waiting for it');
      await new Promise((r) => setTimeout(r, 10_000));
      continue;
    }
    if (code !== 0) throw new Error(`next build failed (exit ${code}):\n${log}`);
    // Completes the standalone folder the launcher runs (browser assets, the launcher itself).
    execFileSync(process.execPath, [join(root, 'scripts', 'finish-build.mjs')], { cwd: root, stdio: 'ignore' });
    const s = ((performance.now() - started) / 1000).toFixed(0);
    console.log(`  built in ${s} s`);
    return `a fresh production build (\`next build\`, ${s} s, run because the sources were newer than .next/standalone)`;
  }
}

/**
 * `next start` against `redisUrl` with every ASYNQLENS_* setting at its default: a variable
 * left in this process's environment (bench/our-reads.ts sets ASYNQLENS_SNAPSHOT_MS=0 for its
 * in-process routes) must not turn the shared snapshot off in the child.
 */
export async function startDefaultApp(redisUrl: string): Promise<AppServer> {
  const saved = Object.entries(process.env).filter(([k]) => k.startsWith('ASYNQLENS_'));
  for (const [k] of saved) delete process.env[k];
  try {
    return await startApp(redisUrl);
  } finally {
    for (const [k, v] of saved) process.env[k] = v;
  }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_BIN ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * bench/run.ts pins this process to cores 1… (Redis has core 0); children inherit that. The app
 * server and Chromium (a browser and a web server, not the measured Redis) get every core
 * instead: this widens this process's affinity, for the children started until `restore()`.
 */
export function unpinForChildren(): { note: string; restore: () => void } {
  const cores = osCpus().length;
  let mask: string | undefined;
  try {
    mask = /mask:\s*([0-9a-f,]+)/i.exec(execFileSync('taskset', ['-p', String(process.pid)], { encoding: 'utf8' }))?.[1];
    execFileSync('taskset', ['-a', '-p', '-c', `0-${cores - 1}`, String(process.pid)], { stdio: 'ignore' });
  } catch (err) {
    return { note: `on this process's CPUs (taskset failed: ${err instanceof Error ? err.message : String(err)})`, restore: () => {} };
  }
  return {
    note: `on all ${cores} cores (not pinned)`,
    restore: () => {
      if (mask) execFileSync('taskset', ['-a', '-p', mask, String(process.pid)], { stdio: 'ignore' });
    },
  };
}
