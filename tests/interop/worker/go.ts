/**
 * The Go side of the worker interop suite: the real asynq v0.26.0 program of tests/go, built
 * once per test process into a private directory (or taken from ASYNQLENS_GO_BIN), run as a
 * one-shot subcommand or as a long-running `serve`. Without Go the suites skip loudly, and
 * fail under CI=true, like tests/interop/live.test.ts.
 */
import { spawn } from 'node:child_process';
import { inject } from 'vitest';
import { goAvailability, privateInteropBinary, requireGoFor, startGoProcess, type GoProcess } from '../go-harness';

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

export type GoServe = GoProcess;

/** Starts `serve` and resolves once it printed READY. */
export async function startGoServe(db: number, args: string[]): Promise<GoServe> {
  return startGoProcess(await goBin(), 'serve', [...connArgs(db), ...args]);
}
