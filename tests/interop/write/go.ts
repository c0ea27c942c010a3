/**
 * The Go side of the write-path interop suite: the real asynq program of tests/go,
 * driven one subcommand at a time (enqueue, inspect-op, dump-redis, enqueue-race, process)
 * through the one harness (../go-harness), typed for the suites here and for
 * tests/integration/search, which builds its data with them.
 */
import type { GoTask } from '../go-dump';
import { goHarness, redisArgs } from '../go-harness';

export const asynqGo = goHarness('write');

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

export type GoEnqueueResult =
  | { ok: true; task: GoTask }
  | { ok: false; error: string; duplicate: boolean; idConflict: boolean };

export async function goEnqueue(db: number, req: GoEnqueueRequest): Promise<GoEnqueueResult> {
  return asynqGo.json<GoEnqueueResult>('enqueue', redisArgs(db), { stdin: { options: {}, ...req } });
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
  return asynqGo.json<GoOpResult>('inspect-op', redisArgs(db), { stdin: req });
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
  return asynqGo.json<RawDump>('dump-redis', redisArgs(db));
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
  return asynqGo.json<GoRaceResult>('enqueue-race', [...redisArgs(db), ...args]);
}

// ---------------------------------------------------------------------------------------------
// process

/** One handler invocation as the Go server printed it. */
export interface Invocation {
  id: string;
  queue: string;
  type: string;
  payloadBase64: string;
  /** null: the release has no task headers (before v0.26), so the handler cannot see any. */
  headers: Record<string, string> | null;
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
  return asynqGo.jsonLines<Invocation>('process', [...redisArgs(db), ...args], { timeoutMs: (o.seconds + 30) * 1000 });
}
