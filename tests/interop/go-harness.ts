/**
 * Drives the Go interop program (tests/go, real github.com/hibiken/asynq v0.26.0) for the live
 * interop suite: finds or builds it, runs the long-lived `scenario` and takes a `dump`.
 */
import { execFile, spawn, type ChildProcessByStdio } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, delimiter } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';

const execFileAsync = promisify(execFile);

/** tests/go, where the Go module lives. */
export const GO_MODULE_DIR = fileURLToPath(new URL('../go/', import.meta.url));

// ---------------------------------------------------------------------------------------------
// The dump's JSON shape (tests/go/dump.go, dump_runtime.go, taskjson.go). Times are Unix
// seconds, 0 for Go's zero time; bytes are base64, null for a nil slice.

export interface GoTask {
  id: string;
  queue: string;
  type: string;
  payloadBase64: string | null;
  state: string;
  maxRetry: number;
  retried: number;
  lastError: string;
  lastFailedAt: number;
  timeoutSeconds: number;
  deadline: number;
  group: string;
  nextProcessAt: number;
  completedAt: number;
  retentionSeconds: number;
  resultBase64: string | null;
  headers: Record<string, string>;
  isOrphaned: boolean;
}

export interface GoQueueInfo {
  queue: string;
  paused: boolean;
  size: number;
  pending: number;
  active: number;
  scheduled: number;
  retry: number;
  archived: number;
  completed: number;
  aggregating: number;
  groups: number;
  processed: number;
  failed: number;
  processedTotal: number;
  failedTotal: number;
  latencyNs: number;
  memoryUsage: number;
  timestamp: number;
}

export interface GoQueueTasks {
  pending: GoTask[];
  active: GoTask[];
  scheduled: GoTask[];
  retry: GoTask[];
  archived: GoTask[];
  completed: GoTask[];
  aggregating: Record<string, GoTask[]>;
}

export interface GoWorker {
  taskId: string;
  taskType: string;
  queue: string;
  payloadBase64: string | null;
  startedAt: number;
  deadline: number;
}

export interface GoServer {
  id: string;
  host: string;
  pid: number;
  concurrency: number;
  queues: Record<string, number>;
  strictPriority: boolean;
  status: string;
  startedAt: number;
  workers: GoWorker[];
}

export interface GoSchedulerEntry {
  id: string;
  spec: string;
  taskType: string;
  payloadBase64: string | null;
  options: string[];
  nextEnqueueAt: number;
  prevEnqueueAt: number;
}

export interface GoSchedulerEvent {
  taskId: string;
  enqueuedAt: number;
}

export interface GoDump {
  queues: string[];
  queueInfo: Record<string, GoQueueInfo>;
  history: Record<string, { date: string; processed: number; failed: number }[]>;
  groups: Record<string, { group: string; size: number }[]>;
  tasks: Record<string, GoQueueTasks>;
  taskInfo: Record<string, Record<string, GoTask>>;
  servers: GoServer[];
  schedulerEntries: GoSchedulerEntry[];
  schedulerEvents: Record<string, GoSchedulerEvent[]>;
}

/** The list states of a dump, in the order the test walks them (aggregating is per group). */
export const LIST_STATES = ['pending', 'active', 'scheduled', 'retry', 'archived', 'completed'] as const;

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
export function findGoTool(): string | null {
  const onPath = (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'go'));
  return [...onPath, '/usr/local/go/bin/go'].find(isExecutable) ?? null;
}

export type GoAvailability =
  | { kind: 'prebuilt'; bin: string }
  | { kind: 'build'; go: string }
  | { kind: 'missing'; reason: string };

/**
 * Decided synchronously at collection time, so the suite can be skipped (or made to fail under
 * CI) before any hook runs. ASYNQLENS_GO_BIN (set by scripts/test.sh) wins; otherwise the
 * program is built from tests/go with the Go toolchain.
 */
export function goAvailability(): GoAvailability {
  const prebuilt = process.env.ASYNQLENS_GO_BIN;
  if (prebuilt) return { kind: 'prebuilt', bin: prebuilt };
  const go = findGoTool();
  if (go) return { kind: 'build', go };
  return { kind: 'missing', reason: 'ASYNQLENS_GO_BIN is unset and no `go` on PATH or at /usr/local/go/bin/go' };
}

export const NO_GO_BANNER = [
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

/** The path of a runnable interop program: the prebuilt one, or a fresh `go build`. */
export async function ensureInteropBinary(avail: GoAvailability): Promise<string> {
  if (avail.kind === 'missing') throw new Error(`cannot run the Go interop program: ${avail.reason}`);
  if (avail.kind === 'prebuilt') {
    if (!isExecutable(avail.bin)) throw new Error(`ASYNQLENS_GO_BIN=${avail.bin} is not an executable file`);
    return avail.bin;
  }
  const out = join(GO_MODULE_DIR, 'interop-bin');
  try {
    await execFileAsync(avail.go, ['build', '-o', 'interop-bin', '.'], { cwd: GO_MODULE_DIR, timeout: 300_000 });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`go build in ${GO_MODULE_DIR} failed: ${e.message}\n${e.stderr ?? ''}`);
  }
  return out;
}

/**
 * For a suite of tests/interop/<folder>: without Go, a failing test under CI=true (a skipped
 * interop suite counts as a failure there), else the loud banner. Call once at the top of a
 * test file, then wrap the suite in `describe.skipIf(avail.kind === 'missing')`.
 */
export function requireGoFor(avail: GoAvailability, suite: string, folder: string): void {
  if (avail.kind !== 'missing') return;
  if (process.env.CI === 'true') {
    describe(`${suite} under CI`, () => {
      it('requires Go (a skipped interop suite counts as a failure under CI=true)', () => {
        throw new Error(`${suite} cannot run under CI: ${avail.reason}`);
      });
    });
  } else {
    console.warn(`${NO_GO_BANNER}\n##  Also skipped: ${suite} (tests/interop/${folder})\n`);
  }
}

/**
 * The interop program built into a private temporary directory (removed at exit), so test
 * files running in parallel never overwrite each other's binary; the prebuilt one when
 * ASYNQLENS_GO_BIN is set.
 */
export async function privateInteropBinary(avail: GoAvailability, label: string): Promise<string> {
  if (avail.kind !== 'build') return ensureInteropBinary(avail);
  const dir = mkdtempSync(join(tmpdir(), `asynqlens-interop-${label}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'interop-bin');
  try {
    await execFileAsync(avail.go, ['build', '-o', out, '.'], { cwd: GO_MODULE_DIR, timeout: 300_000 });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`go build in ${GO_MODULE_DIR} failed: ${e.message}\n${e.stderr ?? ''}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Running it.

const connArgs = (port: number, db: number) => ['--redis', `127.0.0.1:${port}`, '--db', String(db)];

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
export function startScenario(bin: string, port: number, db: number, readyTimeoutMs = 60_000): Promise<RunningScenario> {
  const child: ChildProcessByStdio<Writable, Readable, Readable> = spawn(
    bin,
    ['scenario', ...connArgs(port, db), '--flush'],
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

/** Runs `dump` and parses its one JSON document. */
export async function runDump(bin: string, port: number, db: number): Promise<GoDump> {
  try {
    const { stdout } = await execFileAsync(bin, ['dump', ...connArgs(port, db)], {
      maxBuffer: 64 * 1024 * 1024,
      timeout: 60_000,
    });
    return JSON.parse(stdout) as GoDump;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`interop dump failed: ${e.message}\n${e.stderr ?? ''}`);
  }
}

/** A long-running interop-bin subcommand (a Go server) started by {@link startGoProcess}. */
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
export async function startGoProcess(bin: string, sub: string, args: string[]): Promise<GoProcess> {
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
