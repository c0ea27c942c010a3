/**
 * Recovery after a handler-not-found incident: once a worker with the handler is deployed,
 * every not-found task of one type in one queue goes back to pending, in batches.
 */
import type { RedisClient } from '../redis-client';
import type { AsynqError } from '../errors';
import { assertQueueExists } from '../inspector/queues';
import { bulkByIds } from '../mutations/bulk';
import type { FailedState } from './failure-groups';
import { readTaskMsg } from '../task-msg-view';
import { isHandlerNotFoundError } from './not-found';
import { assertWritableQueueName } from '../queue-name';
import { forEachSlice } from '../task-source/slices';
import { sizeStructures, structureOf } from '../task-source/structures';

/** Progress of a re-run, per state. */
export interface RerunProgress {
  /** Finding the tasks (reading the state's set), then moving them to pending. */
  phase: 'scanning' | 'running';
  state: FailedState;
  done: number;
  total: number;
}

/** How a re-run runs. */
export interface RerunOptions {
  signal?: AbortSignal;
  onProgress?: (p: RerunProgress) => void;
  /** Task IDs per move call (≤ 500; bulkByIds sizes batches to about 2 ms each). */
  batchSize?: number;
}

/** What a re-run did. */
export interface RerunResult {
  succeeded: number;
  /** Tasks that were found but could not be moved (a worker took a retry task meanwhile, …). */
  failed: { id: string; error: AsynqError }[];
  /** Per state: not-found tasks of the type found, and moved. */
  byState: Partial<Record<FailedState, { found: number; succeeded: number; failed: number }>>;
  /** True when the signal stopped it before the end. */
  stopped: boolean;
}

/**
 * Throws invalid_argument for a name the console does not write keys under (queue-name.ts),
 * then queue_not_found unless `qname` exists. One round trip (SISMEMBER).
 */
export async function assertRerunTarget(redis: RedisClient, qname: string): Promise<void> {
  assertWritableQueueName('rerunNotFound', 'queue', qname);
  await assertQueueExists(redis, 'rerunNotFound', qname);
}

/** The IDs of the not-found tasks of `taskType` in one state's zset: one read per ≤ 500 tasks. */
async function findIds(redis: RedisClient, qname: string, taskType: string, state: FailedState, opts: RerunOptions): Promise<string[]> {
  const src = structureOf(qname, state);
  const [total = 0] = await sizeStructures(redis, [src]);
  const ids: string[] = [];
  let done = 0;
  opts.onProgress?.({ phase: 'scanning', state, done, total });
  await forEachSlice(redis, [src], (s) => {
    s.ids.forEach((id, i) => {
      const msg = s.msgs[i];
      const f = msg ? readTaskMsg(msg) : null;
      if (f && f.typeText === taskType && isHandlerNotFoundError(f.errorText, taskType)) ids.push(id.toString('utf8'));
    });
    done += s.ids.length;
    opts.onProgress?.({ phase: 'scanning', state, done: Math.min(done, total), total: Math.max(total, done) });
  }, { signal: opts.signal });
  return ids;
}

/**
 * How many tasks of `taskType` in `qname` a re-run would move now, per state: the same reads as
 * the re-run's first pass (one ZRANGE + HMGET pass per ≤ 500 tasks of each state's set), nothing
 * written. What a confirmation shows, so the result can explain any difference.
 */
export async function countNotFound(redis: RedisClient, qname: string, taskType: string, states: readonly FailedState[], opts: Pick<RerunOptions, 'signal'> = {}): Promise<Partial<Record<FailedState, number>>> {
  await assertQueueExists(redis, 'countNotFound', qname);
  const out: Partial<Record<FailedState, number>> = {};
  for (const state of new Set(states)) out[state] = (await findIds(redis, qname, taskType, state, opts)).length;
  return out;
}

/**
 * Re-runs (moves to pending, as asynq's RunTask does) every task of `taskType` in `qname`
 * whose last error is asynq's not-found error, from each of `states`. Each move batch is atomic
 * and checks the task is still in that state, so a task a worker took meanwhile is reported in
 * `failed`, never moved twice. Throws invalid_argument (see assertRerunTarget) or queue_not_found.
 */
export async function rerunNotFound(redis: RedisClient, qname: string, taskType: string, states: readonly FailedState[], opts: RerunOptions = {}): Promise<RerunResult> {
  await assertRerunTarget(redis, qname);
  const out: RerunResult = { succeeded: 0, failed: [], byState: {}, stopped: false };
  for (const state of new Set(states)) {
    if (opts.signal?.aborted) return { ...out, stopped: true };
    const ids = await findIds(redis, qname, taskType, state, opts);
    if (opts.signal?.aborted) return { ...out, stopped: true };
    const r = await bulkByIds(redis, qname, 'run', state, ids, {
      signal: opts.signal,
      ...(opts.batchSize ? { batchSize: opts.batchSize } : {}),
      onProgress: (p) => opts.onProgress?.({ phase: 'running', state, ...p }),
    });
    out.succeeded += r.succeeded;
    out.failed.push(...r.failed);
    out.byState[state] = { found: ids.length, succeeded: r.succeeded, failed: r.failed.length };
    if (r.stopped) return { ...out, stopped: true };
  }
  return out;
}
