/**
 * The two HTTP servers the read benchmark times on the same Redis: ours, the production build
 * through the product's launcher, and Go's, `interop-bin serve-inspector` (tests/go/
 * inspectorserver.go: net/http over asynq v0.26.0's Inspector, what asynqmon's handlers do).
 * Both inherit this process's CPU pinning (bench/machine.ts: Redis alone on core 0).
 */
import { spawn } from 'node:child_process';
import { startApp, type AppServer } from '../tests/e2e/support/app-server';
import { childListeningOn } from './process-cpu';
import { buildIfStale } from './ui-app';

export interface BenchServer extends AppServer {
  /** The server's process, for its CPU time; undefined when it cannot be found. */
  pid: number | undefined;
}

export interface OurServer extends BenchServer {
  /** Which build runs, for the results. */
  build: string;
}

/**
 * The launcher (`bin/asynqlens.mjs` over .next/standalone, rebuilt first when older than the
 * sources) with sign-in off and the shared snapshot off (`ASYNQLENS_SNAPSHOT_MS=0`), so every
 * request reads Redis as each of Go's does.
 */
export async function startOurServer(redisUrl: string): Promise<OurServer> {
  const build = await buildIfStale();
  const app = await startApp(redisUrl, { ASYNQLENS_AUTH: 'none', ASYNQLENS_SNAPSHOT_MS: '0' });
  // The launcher runs the server in its own process (it imports server.js).
  return { ...app, build, pid: childListeningOn(Number(new URL(app.url).port)) };
}

const READY_TIMEOUT_MS = 30_000;

/** `serve-inspector` on a free loopback port; resolves once it printed its address and READY. */
export function startGoServer(bin: string, redisPort: number): Promise<BenchServer> {
  const child = spawn(bin, ['serve-inspector', '--redis', `127.0.0.1:${redisPort}`, '--db', '0', '--addr', '127.0.0.1:0'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err = (err + c.toString('utf8')).slice(-4000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  // It serves until its stdin closes (tests/go/serve.go waitForEnd).
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.stdin.end();
    const t = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(t);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve-inspector printed no READY within ${READY_TIMEOUT_MS / 1000} s: ${err.trim()}`));
    }, READY_TIMEOUT_MS);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const addr = /^LISTENING (\S+)\nREADY$/m.exec(out)?.[1];
      if (addr === undefined) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({ url: `http://${addr}`, stop, pid: child.pid });
    });
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`serve-inspector exited (${code ?? signal}) before READY: ${err.trim() || out.trim()}`));
    });
  });
}
