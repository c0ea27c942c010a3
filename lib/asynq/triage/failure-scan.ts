/**
 * The scan behind the failures view and handler-not-found triage. Pass 1 reads every retry and
 * archived task of the chosen queues and groups them (failure-groups.ts). Pass 2 reads the
 * pending and scheduled tasks of only the queues where pass 1 found not-found failures, and
 * counts those of the not-found types: they are still waiting and will fail the same way.
 */
import { assertQueueSlot, readableQueues } from '../topology';
import type { RedisClient } from '../redis-client';
import { queueNotFound } from '../errors';
import { listQueueNames } from '../inspector/queues';
import * as k from '../keys';
import { FailureGroups, type FailedState } from './failure-groups';
import { readTaskMsg } from '../task-msg-view';
import { forEachSlice, listSources, sizeSources, type Slice, type Source } from './slices';

/** What a failure scan reads. */
export interface FailureScanOptions {
  /** Only this queue (queue_not_found when it does not exist); default every queue. */
  queue?: string | undefined;
  /** Tasks per Redis call (≤ 500). */
  maxSlice?: number;
  signal?: AbortSignal;
}

/** Pass 1 (retry + archived), pass 2 (pending + scheduled of not-found types), or finished. */
export type FailureScanPhase = 'failures' | 'waiting' | 'done';

/** How far a scan got. */
export interface FailureScanProgress {
  complete: boolean;
  phase: FailureScanPhase;
  /** Tasks read, plus the waiting tasks of queues pass 2 did not need to read. */
  scanned: number;
  /** Retry + archived + pending + scheduled tasks of the queues when the scan started. */
  total: number;
  /** Tasks whose hash or msg was missing or not a TaskMessage. */
  skipped: number;
  queues: string[];
}

/** A failure scan: nothing is read before prepare() or run(). */
export interface FailureScan {
  /** Checks the queue and sizes the sets (one SISMEMBER or SMEMBERS, one pipeline). */
  prepare(): Promise<void>;
  /** Runs both passes to the end, or until the signal is aborted. Rejects on a Redis error. */
  run(): Promise<void>;
  progress(): FailureScanProgress;
  /** The groups so far; complete once progress().complete. */
  readonly groups: FailureGroups;
}

interface Sized extends Source {
  size: number;
}

/**
 * A scan of `opts.queue` (or every queue). Nothing is read before prepare() or run(). Redis
 * cost: one call per ≤ 500 tasks read, each about 0.5 ms; see slices.ts.
 */
export function createFailureScan(redis: RedisClient, opts: FailureScanOptions = {}): FailureScan {
  const groups = new FailureGroups();
  const p: FailureScanProgress = { complete: false, phase: 'failures', scanned: 0, total: 0, skipped: 0, queues: [] };
  let failed: Sized[] | null = null;
  let waiting: Sized[] = [];

  async function sized(queues: string[], states: ('retry' | 'archived' | 'pending' | 'scheduled')[]): Promise<Sized[]> {
    const sources = (await Promise.all(queues.map((q) => listSources(redis, q, states)))).flat();
    const sizes = await sizeSources(redis, sources);
    return sources.map((s, i) => ({ ...s, size: sizes[i] ?? 0 }));
  }

  async function prepare(): Promise<void> {
    if (failed) return;
    let queues: string[];
    if (opts.queue !== undefined) assertQueueSlot(redis, 'scanFailures', opts.queue);
    if (opts.queue === undefined) queues = readableQueues(redis, await listQueueNames(redis));
    else if ((await redis.sismember(k.ALL_QUEUES, opts.queue)) === 1) queues = [opts.queue];
    else throw queueNotFound('scanFailures', opts.queue);
    const all = await sized(queues, ['retry', 'archived', 'pending', 'scheduled']);
    failed = all.filter((s) => s.state === 'retry' || s.state === 'archived');
    waiting = all.filter((s) => s.state === 'pending' || s.state === 'scheduled');
    p.total = all.reduce((n, s) => n + s.size, 0);
    p.queues = queues;
  }

  function readFailed(src: Sized) {
    return (s: Slice) => {
      s.ids.forEach((id, i) => {
        const msg = s.msgs[i];
        const f = msg ? readTaskMsg(msg) : null;
        if (f === null) p.skipped++;
        else groups.add({ queue: src.queue, id, state: src.state as FailedState, type: f.typeText, retried: f.retried, errorMsg: f.errorText, lastFailedAt: f.lastFailedAt });
      });
      p.scanned += s.ids.length;
    };
  }

  async function run(): Promise<void> {
    await prepare();
    const sliceOpts = { maxSlice: opts.maxSlice, signal: opts.signal };
    for (const src of failed!) await forEachSlice(redis, src, readFailed(src), sliceOpts);
    if (opts.signal?.aborted) return;
    p.phase = 'waiting';
    const byQueue = groups.notFoundTypesByQueue();
    for (const src of waiting) {
      const types = byQueue.get(src.queue);
      if (!types) {
        p.scanned += src.size;
        continue;
      }
      const field = src.state as 'pending' | 'scheduled';
      await forEachSlice(redis, src, (s) => {
        for (const msg of s.msgs) {
          const type = msg ? (readTaskMsg(msg)?.typeText ?? null) : null;
          const g = type === null ? undefined : types.get(type);
          if (g) g[field]++;
        }
        p.scanned += s.ids.length;
      }, sliceOpts);
    }
    if (opts.signal?.aborted) return;
    p.phase = 'done';
    p.complete = true;
  }

  return { prepare, run, progress: () => ({ ...p, total: Math.max(p.total, p.scanned), queues: [...p.queues] }), groups };
}
