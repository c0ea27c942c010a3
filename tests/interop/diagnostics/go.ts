/**
 * The Go side of the diagnostics interop suite: the real asynq v0.26.0 program of tests/go,
 * one subcommand at a time. Built once per test process into a private temporary directory
 * (or taken from ASYNQLENS_GO_BIN), so parallel test files never overwrite each other's
 * binary. Without Go the suite is skipped loudly, and fails under CI=true (go-harness's rule).
 */
import { execFile } from 'node:child_process';
import { inject } from 'vitest';
import { goAvailability, privateInteropBinary, requireGoFor } from '../go-harness';

const avail = goAvailability();

/** True when the suite must be skipped (Go missing and not under CI). */
export const noGo = avail.kind === 'missing';

/** Call once at the top of a test file, then wrap the suite in `describe.skipIf(noGo)`. */
export function requireGo(suite: string): void {
  requireGoFor(avail, suite, 'diagnostics');
}

let bin: Promise<string> | undefined;

function goBin(): Promise<string> {
  bin ??= privateInteropBinary(avail, 'diag');
  return bin;
}

/** Runs one subcommand against database `db`; resolves with its stdout (stderr in the error). */
export async function runGo(sub: string, db: number, args: string[] = [], stdin?: unknown): Promise<string> {
  const path = await goBin();
  const conn = ['--redis', `127.0.0.1:${inject('redisPort')}`, '--db', String(db)];
  return new Promise((resolve, reject) => {
    const child = execFile(path, [sub, ...conn, ...args], { timeout: 90_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`interop-bin ${sub} failed: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
    child.stdin?.end(stdin === undefined ? '' : JSON.stringify(stdin));
  });
}
