/**
 * The one way a test drives the Go interop program (tests/go, real github.com/hibiken/asynq):
 * {@link goHarness} finds the program built against the asynq release this run judges by
 * ({@link ASYNQ}: v0.26.0 unless ASYNQLENS_ASYNQ names another release of
 * tests/go/asynq-versions.txt), skips a suite loudly without Go (a failure under CI=true), and
 * runs its subcommands one-shot (bounded, failing with the subcommand's name and Go's stderr) or
 * long-running (`scenario`, `serve`, `triage-serve`).
 */
import { execFile, spawn, type ChildProcessByStdio } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, delimiter } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, inject, it } from 'vitest';
import { releaseOf, selectBuild, type AsynqRelease } from './asynq-builds';

export { type AsynqRelease } from './asynq-builds';

const execFileAsync = promisify(execFile);

/** tests/go, where the Go module lives. */
const GO_MODULE_DIR = fileURLToPath(new URL('../go/', import.meta.url));

// ---------------------------------------------------------------------------------------------
// The asynq release.

const BUILD = selectBuild(process.env.ASYNQLENS_ASYNQ);

/** The asynq release this run's Go program is built against. */
export const ASYNQ: AsynqRelease = releaseOf(BUILD.version);

/** `--redis 127.0.0.1:<port> --db <db>`: the suite's own redis-server unless `port` is given. */
export const redisArgs = (db: number, port: number = inject('redisPort')): string[] => ['--redis', `127.0.0.1:${port}`, '--db', String(db)];

// ---------------------------------------------------------------------------------------------
// Locating the program.

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The `go` tool on PATH, else /usr/local/go/bin/go, else null. */
function findGoTool(): string | null {
  const onPath = (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'go'));
  return [...onPath, '/usr/local/go/bin/go'].find(isExecutable) ?? null;
}

type GoAvailability =
  | { kind: 'prebuilt'; bin: string }
  | { kind: 'build'; go: string }
  | { kind: 'missing'; reason: string };

/**
 * Decided synchronously at collection time, so the suite can be skipped (or made to fail under
 * CI) before any hook runs. ASYNQLENS_GO_BIN (set by scripts/test.sh: the default release's
 * program, with the other releases' beside it) wins; otherwise the program is built from tests/go
 * with the Go toolchain.
 */
function goAvailability(): GoAvailability {
  const prebuilt = process.env.ASYNQLENS_GO_BIN;
  if (prebuilt) return { kind: 'prebuilt', bin: process.env.ASYNQLENS_ASYNQ ? join(dirname(prebuilt), BUILD.binary) : prebuilt };
  const go = findGoTool();
  if (go) return { kind: 'build', go };
  return { kind: 'missing', reason: 'ASYNQLENS_GO_BIN is unset and no `go` on PATH or at /usr/local/go/bin/go' };
}

const NO_GO_BANNER = [
  '',
  '##############################################################################',
  '##  WARNING: Go was not found; the LIVE GO INTEROP SUITE IS SKIPPED.        ##',
  '##                                                                          ##',
  '##  tests/interop/live.test.ts is the compatibility proof against the real  ##',
  '##  github.com/hibiken/asynq. Without it nothing shows that asynqlens reads ##',
  '##  what asynq writes. Install Go (https://go.dev/dl/) and re-run.          ##',
  '##  (Under CI=true this is a failure, not a skip.)                          ##',
  '##############################################################################',
  '',
].join('\n');

/**
 * The prebuilt program, or one built into a private temporary directory (removed at exit), so
 * test files running in parallel never overwrite each other's binary.
 */
async function interopBinary(avail: GoAvailability, label: string): Promise<string> {
  if (avail.kind === 'missing') throw new Error(`cannot run the Go interop program: ${avail.reason}`);
  if (avail.kind === 'prebuilt') {
    if (!isExecutable(avail.bin)) throw new Error(`${avail.bin} (asynq ${ASYNQ.version}, from ASYNQLENS_GO_BIN) is not an executable file: run scripts/ensure-go.sh`);
    return checkedRelease(avail.bin);
  }
  const dir = mkdtempSync(join(tmpdir(), `asynqlens-interop-${label}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'interop-bin');
  const args = ['build', '-o', out];
  if (BUILD.modfile !== 'go.mod') args.push(`-modfile=${BUILD.modfile}`);
  if (BUILD.tags) args.push(`-tags=${BUILD.tags}`);
  try {
    await execFileAsync(avail.go, [...args, '.'], { cwd: GO_MODULE_DIR, timeout: 300_000 });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`go build in ${GO_MODULE_DIR} against asynq ${ASYNQ.version} failed: ${e.message}\n${e.stderr ?? ''}`);
  }
  return checkedRelease(out);
}

/**
 * `bin`, once its `version` subcommand names the release and abilities {@link ASYNQ} promises:
 * a stale or mixed-up binary would otherwise pass one release's expectations off as another's.
 */
async function checkedRelease(bin: string): Promise<string> {
  const said = parseJson<{ asynq: string; headers: boolean; revoke: boolean }>('version', await runOnce(bin, 'version', [], {}));
  const promised = { asynq: ASYNQ.version, headers: ASYNQ.headers, revoke: ASYNQ.revoke };
  const got = { asynq: said.asynq, headers: said.headers, revoke: said.revoke };
  if (JSON.stringify(got) !== JSON.stringify(promised)) {
    throw new Error(`${bin} is built against ${JSON.stringify(got)}, not ${JSON.stringify(promised)}: run scripts/ensure-go.sh`);
  }
  return bin;
}

// ---------------------------------------------------------------------------------------------
// The harness.

export interface RunOptions {
  /** Written to stdin as JSON; stdin is closed either way (no one-shot subcommand waits on it). */
  stdin?: unknown;
  /** SIGKILL and fail after this long. */
  timeoutMs?: number;
}

export interface GoHarness {
  /** True without Go: wrap the suite in `describe.skipIf(go.noGo)`. */
  readonly noGo: boolean;
  /**
   * Call once at the top of a test file. Without Go: under CI=true a failing test (a skipped
   * interop suite counts as a failure there), else the loud banner naming `suite`.
   */
  requireGo(suite: string): void;
  /** The program's path, built on the first call (call it in a beforeAll to build early). */
  bin(): Promise<string>;
  /** Runs `sub ...args` to its end; resolves with stdout. */
  run(sub: string, args: string[], o?: RunOptions): Promise<string>;
  /** {@link run}, its stdout parsed as one JSON document. */
  json<T>(sub: string, args: string[], o?: RunOptions): Promise<T>;
  /** {@link run}, its stdout parsed as one JSON document a line. */
  jsonLines<T>(sub: string, args: string[], o?: RunOptions): Promise<T[]>;
  /** Starts a long-running `sub ...args` and resolves once it printed READY. */
  start(sub: string, args: string[]): Promise<GoProcess>;
  /** Starts `scenario --flush` on `db` and resolves once it printed READY. */
  scenario(db: number, readyTimeoutMs?: number): Promise<RunningScenario>;
}

/**
 * The interop program for one test file (Vitest gives each file its own module graph, so
 * `label`, which names the private build directory, is per file or per suite folder).
 */
export function goHarness(label: string): GoHarness {
  const avail = goAvailability();
  let bin: Promise<string> | undefined;
  const harness: GoHarness = {
    noGo: avail.kind === 'missing',
    requireGo(suite) {
      if (avail.kind !== 'missing') return;
      if (process.env.CI === 'true') {
        describe(`${suite} under CI`, () => {
          it('requires Go (a skipped interop suite counts as a failure under CI=true)', () => {
            throw new Error(`${suite} cannot run under CI: ${avail.reason}`);
          });
        });
      } else {
        console.warn(`${NO_GO_BANNER}\n##  Skipped: ${suite}\n`);
      }
    },
    bin() {
      bin ??= interopBinary(avail, label);
      return bin;
    },
    async run(sub, args, o = {}) {
      return runOnce(await harness.bin(), sub, args, o);
    },
    async json<T>(sub: string, args: string[], o?: RunOptions) {
      const out = await harness.run(sub, args, o);
      return parseJson<T>(sub, out);
    },
    async jsonLines<T>(sub: string, args: string[], o?: RunOptions) {
      const out = await harness.run(sub, args, o);
      return out.split('\n').filter((l) => l.trim() !== '').map((l) => parseJson<T>(sub, l));
    },
    async start(sub, args) {
      return startGoProcess(await harness.bin(), sub, args);
    },
    async scenario(db, readyTimeoutMs) {
      return startScenario(await harness.bin(), redisArgs(db), readyTimeoutMs);
    },
  };
  return harness;
}

function parseJson<T>(sub: string, text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new Error(`interop-bin ${sub} printed no JSON (${(err as Error).message}):\n${text.slice(0, 2000)}`);
  }
}

/** One subcommand to its end. 'close', not 'exit': only then has all of stdout been read. */
function runOnce(bin: string, sub: string, args: string[], { stdin, timeoutMs = 60_000 }: RunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [sub, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    // An EPIPE on stdin after the child died must not crash the test process.
    child.stdin.on('error', () => {});
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`interop-bin ${sub} could not start (${bin}): ${e.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(out);
      const how = timedOut ? `did not finish within ${timeoutMs / 1000} s` : `exited with ${code ?? signal}`;
      reject(new Error(`interop-bin ${sub} ${how} (args: ${args.join(' ')})\n--- stderr ---\n${err}`));
    });
    child.stdin.end(stdin === undefined ? '' : JSON.stringify(stdin));
  });
}

// ---------------------------------------------------------------------------------------------
// Long-running subcommands.

export interface RunningScenario {
  pid: number;
  /** Everything the scenario wrote to stderr so far (asynq's and the scenario's logs). */
  stderr(): string;
  /**
   * Closes stdin, which makes the scenario shut asynq down and exit; SIGKILL after `timeoutMs`.
   * Resolves with the exit code (null when killed by a signal) and whether it had to be killed.
   */
  stop(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; killed: boolean }>;
}

/**
 * Spawns `scenario --flush` and resolves once it prints READY. stdin stays an open pipe: the
 * scenario runs until it is closed (or this process dies, which closes it too).
 */
function startScenario(bin: string, conn: string[], readyTimeoutMs = 60_000): Promise<RunningScenario> {
  const child: ChildProcessByStdio<Writable, Readable, Readable> = spawn(
    bin,
    ['scenario', ...conn, '--flush'],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => (stderr += s));
  // An EPIPE on stdin after the child died must not crash the test process.
  child.stdin.on('error', () => {});

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });

  const handle: RunningScenario = {
    pid: child.pid ?? -1,
    stderr: () => stderr,
    async stop(timeoutMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) {
        return { code: child.exitCode, signal: child.signalCode, killed: false };
      }
      child.stdin.end();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
      const first = await Promise.race([exited, timedOut]);
      clearTimeout(timer);
      if (first !== 'timeout') return { ...first, killed: false };
      child.kill('SIGKILL');
      return { ...(await exited), killed: true };
    },
  };

  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(`scenario did not become READY: ${why}\n--- scenario stderr ---\n${stderr}\n--- end ---`));
    };
    const timer = setTimeout(() => fail(`no READY within ${readyTimeoutMs / 1000}s`), readyTimeoutMs);
    const onData = (s: string) => {
      stdout += s;
      if (/^READY$/m.test(stdout)) {
        cleanup();
        resolve(handle);
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => fail(`exited early (code ${code}, signal ${signal})`);
    const onError = (err: Error) => fail(`spawn ${bin} failed: ${err.message}`);
    function cleanup() {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      // Keep draining stdout so the child never blocks on a full pipe.
      child.stdout.resume();
    }
    child.stdout.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

/** A long-running interop-bin subcommand (a Go server) started by {@link GoHarness.start}. */
export interface GoProcess {
  /** Everything it printed on stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Closes stdin (the subcommand's clean asynq Shutdown) and waits for the exit; SIGKILL after 20 s. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash: asynq gets no chance to write anything. */
  kill(): Promise<void>;
}

/** Spawns `bin sub ...args` and resolves once it printed READY (30 s at most, or its early exit). */
async function startGoProcess(bin: string, sub: string, args: string[]): Promise<GoProcess> {
  const child = spawn(bin, [sub, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
  child.stdin.on('error', () => {});
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${sub} not READY in 30 s: ${err}`)), 30_000);
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
      reject(new Error(`${sub} exited early: ${err}`));
    });
  });
  return {
    stdout: () => out,
    stderr: () => err,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
