/**
 * The Go side of the worker interop suite: the real asynq v0.26.0 program of tests/go, built
 * once per test process into a private directory (or taken from ASYNQLENS_GO_BIN), run as a
 * one-shot subcommand or as a long-running `serve`. Without Go the suites skip loudly, and
 * fail under CI=true, like tests/interop/live.test.ts.
 */
import { spawn } from 'node:child_process';
import { inject } from 'vitest';
import { goAvailability, privateInteropBinary, requireGoFor } from '../go-harness';

const avail = goAvailability();
export const noGo = avail.kind === 'missing';

/** Call at the top of a test file; wrap the suite in `describe.skipIf(noGo)`. */
export function requireGo(suite: string): void {
  requireGoFor(avail, suite, 'worker');
}

let bin: Promise<string> | undefined;

function goBin(): Promise<string> {
  bin ??= privateInteropBinary(avail, 'worker');
  return bin;
}

const connArgs = (db: number) => ['--redis', `127.0.0.1:${inject('redisPort')}`, '--db', String(db)];

/** Runs a one-shot subcommand with optional JSON on stdin; resolves with stdout. */
export async function runGo(sub: string, db: number, args: string[] = [], stdin?: unknown): Promise<string> {
  const path = await goBin();
  return new Promise((resolve, reject) => {
    const child = spawn(path, [sub, ...connArgs(db), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.stdin.on('error', () => {});
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`interop-bin ${sub} exited ${code}: ${err}`))));
    child.stdin.end(stdin === undefined ? '' : JSON.stringify(stdin));
  });
}

export interface GoServe {
  /** Closes stdin (clean asynq Shutdown) and waits for the exit; SIGKILL after 20 s. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash: asynq gets no chance to write anything. */
  kill(): Promise<void>;
  stderr(): string;
}

/** Starts `serve` and resolves once it printed READY. */
export async function startGoServe(db: number, args: string[]): Promise<GoServe> {
  const path = await goBin();
  const child = spawn(path, ['serve', ...connArgs(db), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
  child.stdin.on('error', () => {});
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve not READY in 30 s: ${err}`)), 30_000);
    const poll = setInterval(() => {
      if (/^READY$/m.test(out)) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      }
    }, 20);
    void exited.then(() => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`serve exited early: ${err}`));
    });
  });
  return {
    stderr: () => err,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.stdin.end();
      const t = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(t);
    },
  };
}
