/**
 * Finds the Go interop program (tests/go) the benchmarks compare against, once per process.
 *
 * The binary: $ASYNQLENS_GO_BIN (scripts/bench.sh sets it), else a fresh build into a temp dir
 * when Go is installed (so a stale tests/go/interop-bin is never measured and tests/ is not
 * written to), else a prebuilt tests/go/interop-bin. None of these: undefined, and Go's columns
 * are n/a. Only a missing Go is tolerated; a Go that fails to build throws.
 * The temp build is shared by every case of the run and removed when the process exits.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const GO_DIR = new URL('../tests/go/', import.meta.url).pathname;

function findGo(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/local/go/bin'];
  return dirs.map((d) => join(d, 'go')).find((p) => existsSync(p));
}

async function locate(): Promise<string | undefined> {
  const fromEnv = process.env.ASYNQLENS_GO_BIN;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`ASYNQLENS_GO_BIN=${fromEnv} does not exist`);
    return fromEnv;
  }
  const prebuilt = join(GO_DIR, 'interop-bin');
  const go = findGo();
  if (go === undefined) return existsSync(prebuilt) ? prebuilt : undefined;
  const tmp = mkdtempSync(join(tmpdir(), 'asynqlens-bench-go-'));
  process.once('exit', () => rmSync(tmp, { recursive: true, force: true }));
  // The first build downloads asynq through the module proxy; later ones hit Go's cache.
  await run(go, ['build', '-o', join(tmp, 'interop-bin'), '.'], { cwd: GO_DIR, timeout: 300_000 });
  return join(tmp, 'interop-bin');
}

let found: Promise<string | undefined> | undefined;

/** The interop binary's path, or undefined when there is no Go and no prebuilt binary. */
export function goBinary(): Promise<string | undefined> {
  found ??= locate();
  return found;
}

export const NO_GO = 'Go was not found (PATH, /usr/local/go/bin) and there is no tests/go/interop-bin';

/** Runs the binary with `args`, `stdin` written to its standard input; resolves its stdout. */
export function runGo(bin: string, args: readonly string[], stdin: string, timeoutMs: number): Promise<string> {
  return runChild(bin, args, stdin, timeoutMs);
}

/** Runs any program as {@link runGo} does, optionally in `cwd`; rejects with its stderr's tail. */
export function runChild(bin: string, args: readonly string[], stdin: string, timeoutMs: number, cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'], timeout: timeoutMs, cwd });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString('utf8')).slice(-4000)));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve(out);
      else reject(new Error(`${bin} ${args.join(' ')}: exit ${code ?? signal}: ${err.trim() || out.trim()}`));
    });
    child.stdin.end(stdin);
  });
}
