/**
 * The Go side of the write-path interop suite: the real asynq v0.26.0 program of tests/go,
 * driven one subcommand at a time (enqueue, inspect-op, dump-redis, enqueue-race, process).
 *
 * The program is built once per test process into a private temporary directory (or taken
 * from ASYNQLENS_GO_BIN), so test files running in parallel never overwrite each other's
 * binary. Without Go the suites are skipped loudly, and fail under CI=true, exactly like
 * tests/interop/live.test.ts (the availability logic is go-harness's).
 */
import { spawn } from 'node:child_process';
import { inject } from 'vitest';
import { goAvailability, privateInteropBinary, requireGoFor } from '../go-harness';

export const goAvail = goAvailability();
/** True when the suite must be skipped (Go missing and not under CI). */
export const noGo = goAvail.kind === 'missing';

/**
 * Call once at the top of a test file, then wrap the suite in `describe.skipIf(noGo)`.
 * Without Go: a banner (skip), or under CI=true a failing test.
 */
export function requireGo(suite: string): void {
  requireGoFor(goAvail, suite, 'write');
}

let binPromise: Promise<string> | undefined;

/** Path of a runnable interop program (built once per process). */
export function goBin(): Promise<string> {
  binPromise ??= privateInteropBinary(goAvail, 'write');
  return binPromise;
}

export const redisPort = (): number => inject('redisPort');
const connArgs = (db: number) => ['--redis', `127.0.0.1:${redisPort()}`, '--db', String(db)];

/** Runs one subcommand; resolves with its stdout. A non-zero exit is an error with stderr. */
export async function runGo(sub: string, db: number, args: string[] = [], stdin?: unknown, timeoutMs = 60_000): Promise<string> {
  const bin = await goBin();
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [sub, ...connArgs(db), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.stdin.on('error', () => {});
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    // 'close', not 'exit': only then has all of stdout been read.
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`interop-bin ${sub} exited with ${code ?? signal}\n--- stderr ---\n${err}`));
    });
    if (stdin !== undefined) child.stdin.end(JSON.stringify(stdin));
    else child.stdin.end();
  });
}

// ---------------------------------------------------------------------------------------------
// enqueue

export interface GoEnqueueRequest {
  queue?: string;
  type: string;
  /** null: Go nil payload; "": empty payload. */
  payloadBase64?: string | null;
  options?: {
    taskId?: string;
    uniqueSeconds?: number;
    maxRetry?: number;
    timeoutSeconds?: number;
    processInSeconds?: number;
    retentionSeconds?: number;
    group?: string;
    processAtUnix?: number;
    deadlineUnix?: number;
  };
  headers?: Record<string, string>;
}

export interface GoTaskJson {
  id: string;
  queue: string;
  type: string;
  payloadBase64: string | null;
  state: string;
  maxRetry: number;
  retried: number;
  lastError: string;
  group: string;
  headers: Record<string, string>;
}

export type GoEnqueueResult =
  | { ok: true; task: GoTaskJson }
  | { ok: false; error: string; duplicate: boolean; idConflict: boolean };

export async function goEnqueue(db: number, req: GoEnqueueRequest): Promise<GoEnqueueResult> {
  return JSON.parse(await runGo('enqueue', db, [], { options: {}, ...req })) as GoEnqueueResult;
}

// ---------------------------------------------------------------------------------------------
// inspect-op

export type GoOp =
  | 'runTask' | 'archiveTask' | 'deleteTask' | 'cancelProcessing' | 'updateTaskPayload'
  | 'pauseQueue' | 'unpauseQueue' | 'deleteQueue'
  | 'runAllScheduled' | 'runAllRetry' | 'runAllArchived' | 'runAllAggregating'
  | 'archiveAllPending' | 'archiveAllScheduled' | 'archiveAllRetry' | 'archiveAllAggregating'
  | 'deleteAllPending' | 'deleteAllScheduled' | 'deleteAllRetry' | 'deleteAllArchived'
  | 'deleteAllCompleted' | 'deleteAllAggregating';

export interface GoOpRequest {
  op: GoOp;
  queue: string;
  id?: string;
  group?: string;
  payloadBase64?: string | null;
  force?: boolean;
}

export type GoOpResult =
  | { ok: true; count: number }
  | { ok: false; error: string; notFound: boolean; queueNotFound: boolean };

export async function goInspectOp(db: number, req: GoOpRequest): Promise<GoOpResult> {
  return JSON.parse(await runGo('inspect-op', db, [], req)) as GoOpResult;
}

// ---------------------------------------------------------------------------------------------
// dump-redis

export interface RawKey {
  type: string;
  ttl: 'none' | 'set';
  /** string: base64; list: base64[]; set: sorted base64[]; zset: [base64, score][]; hash: {field: base64}. */
  value: unknown;
}
export type RawDump = Record<string, RawKey>;

export async function dumpRedis(db: number): Promise<RawDump> {
  return JSON.parse(await runGo('dump-redis', db)) as RawDump;
}

// ---------------------------------------------------------------------------------------------
// enqueue-race

export interface GoRaceResult {
  ok: number;
  duplicate: number;
  idConflict: number;
  other: string[];
}

export async function goEnqueueRace(
  db: number,
  o: { count: number; queue: string; type: string; payload: Buffer; uniqueSeconds?: number; taskId?: string; startAtUnixMs: number },
): Promise<GoRaceResult> {
  const args = [
    '--count', String(o.count),
    '--queue', o.queue,
    '--type', o.type,
    '--payload-base64', o.payload.toString('base64'),
    '--start-at-unix-ms', String(o.startAtUnixMs),
    '--client-per-goroutine',
  ];
  if (o.uniqueSeconds !== undefined) args.push('--unique-seconds', String(o.uniqueSeconds));
  if (o.taskId !== undefined) args.push('--task-id', o.taskId);
  return JSON.parse(await runGo('enqueue-race', db, args)) as GoRaceResult;
}

// ---------------------------------------------------------------------------------------------
// process

/** One handler invocation as the Go server printed it. */
export interface Invocation {
  id: string;
  queue: string;
  type: string;
  payloadBase64: string;
  headers: Record<string, string>;
  retryCount: number;
  maxRetry: number;
  deadlineUnix: number;
  hasDeadline: boolean;
  receivedAtUnixMs: number;
}

/**
 * Runs a real asynq.Server on `queues` for `seconds` (retry delay 1 s, forwarder every 1 s,
 * group grace `groupGraceSeconds`) and returns every handler invocation, in order.
 */
export async function goProcess(
  db: number,
  o: { queues: string[]; seconds: number; groupGraceSeconds?: number; groupMaxSize?: number },
): Promise<Invocation[]> {
  const args = ['--queues', o.queues.join(','), '--seconds', String(o.seconds)];
  if (o.groupGraceSeconds !== undefined) args.push('--group-grace-seconds', String(o.groupGraceSeconds));
  if (o.groupMaxSize !== undefined) args.push('--group-max-size', String(o.groupMaxSize));
  const out = await runGo('process', db, args, undefined, (o.seconds + 30) * 1000);
  return out
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Invocation);
}
