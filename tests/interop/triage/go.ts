/**
 * The Go side of the triage interop suite: the real asynq v0.26.0 program of tests/go (built
 * once per test process, or ASYNQLENS_GO_BIN), run one-shot or as a long-running
 * `triage-serve`. Takes the Redis port explicitly: the triage suites may run on their own
 * redis-server (tests/integration/triage/helpers.ts). Without Go the suites skip loudly, and
 * fail under CI=true.
 */
import { spawn } from 'node:child_process';

import { goAvailability, privateInteropBinary, requireGoFor, startGoProcess, type GoDump } from '../go-harness';

const avail = goAvailability();
export const noGo = avail.kind === 'missing';

/** Call at the top of a test file; wrap the suite in `describe.skipIf(noGo)`. */
export function requireGo(suite: string): void {
  requireGoFor(avail, suite, 'triage');
}

let bin: Promise<string> | undefined;

function goBin(): Promise<string> {
  bin ??= privateInteropBinary(avail, 'triage');
  return bin;
}

export interface GoTarget {
  port: number;
  db: number;
}

const connArgs = (t: GoTarget) => ['--redis', `127.0.0.1:${t.port}`, '--db', String(t.db)];

/** Runs a one-shot subcommand with optional JSON on stdin; resolves with stdout. */
export async function runGo(sub: string, t: GoTarget, args: string[] = [], stdin?: unknown): Promise<string> {
  const path = await goBin();
  return new Promise((resolve, reject) => {
    const child = spawn(path, [sub, ...connArgs(t), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
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

/** Everything Go's Inspector sees (tests/go/dump.go). */
export async function goDump(t: GoTarget): Promise<GoDump> {
  return JSON.parse(await runGo('dump', t)) as GoDump;
}

export interface GoEnqueue {
  type: string;
  queue: string;
  options?: { maxRetry?: number; retentionSeconds?: number; processInSeconds?: number };
}

/** Enqueues with Go's Client; the new task IDs, in order. */
export async function goEnqueueMany(t: GoTarget, reqs: GoEnqueue[]): Promise<string[]> {
  const out = JSON.parse(await runGo('enqueue-many', t, [], reqs.map((r) => ({ ...r, options: r.options ?? {} })))) as { ok: boolean; id?: string; error?: string }[];
  return out.map((r, i) => {
    if (!r.ok || !r.id) throw new Error(`Go enqueue ${i} failed: ${r.error}`);
    return r.id;
  });
}

export interface TriageServe {
  /** The tasks handed to a registered handler so far: { id, queue, type, pattern }. */
  handled(): { id: string; queue: string; type: string; pattern: string }[];
  /** Closes stdin (clean asynq Shutdown) and waits for the exit; SIGKILL after 20 s. */
  stop(): Promise<void>;
  stderr(): string;
}

/** Starts `triage-serve` and resolves once it printed READY. */
export async function startTriageServe(t: GoTarget, args: string[]): Promise<TriageServe> {
  const go = await startGoProcess(await goBin(), 'triage-serve', [...connArgs(t), ...args]);
  return {
    handled: () => go.stdout().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { id: string; queue: string; type: string; pattern: string }),
    stderr: () => go.stderr(),
    stop: () => go.stop(),
  };
}

/** Polls `check` every 50 ms until it returns a truthy value; throws with `what` on timeout. */
export async function waitFor<T>(what: string, check: () => Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
