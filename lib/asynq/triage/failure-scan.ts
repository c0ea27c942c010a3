/**
 * The scan behind the failures view and handler-not-found triage. Pass 1 reads every retry and
 * archived task of the chosen queues and groups them (failure-groups.ts). Pass 2 reads the
 * pending and scheduled tasks of only the queues where pass 1 found not-found failures, and
 * counts those of the not-found types: they are still waiting and will fail the same way.
 */
import type { RedisClient } from '../redis-client';
import { FailureGroups, type FailedState } from './failure-groups';
import { readTaskMsg } from '../task-msg-view';
import { scanQueues } from '../task-source/queues';
import { forEachSlice, type Slice } from '../task-source/slices';
import { listStructures, type Structure } from '../task-source/structures';
import { noteUnreadable, readableStructures, readTasks, type ScanProgress, type TaskScan } from '../task-source/task-scan';

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

/**
 * How far a scan got. `total` is the retry + archived + pending + scheduled tasks of the queues;
 * `scanned` also counts the waiting tasks of queues pass 2 did not need to read.
 */
export interface FailureScanProgress extends ScanProgress {
  phase: FailureScanPhase;
  queues: string[];
}

/** A failure scan: prepare() costs one SISMEMBER or SMEMBERS and one pipeline; run() runs both passes. */
export interface FailureScan extends TaskScan {
  progress(): FailureScanProgress;
  /** The groups so far; complete once progress().complete. */
  readonly groups: FailureGroups;
}

interface Sized extends Structure {
  size: number;
}

/**
 * A scan of `opts.queue` (or every queue). Nothing is read before prepare() or run(). Redis
 * cost: one call per ≤ 500 tasks read, each about 0.5 ms; see task-source/slices.ts.
 */
export function createFailureScan(redis: RedisClient, opts: FailureScanOptions = {}): FailureScan {
  const groups = new FailureGroups();
  const p: FailureScanProgress = { complete: false, phase: 'failures', scanned: 0, total: 0, skipped: 0, unreadable: [], queues: [] };
  let failed: Sized[] | null = null;
  let waiting: Sized[] = [];

  async function sized(queues: string[], states: ('retry' | 'archived' | 'pending' | 'scheduled')[]): Promise<Sized[]> {
    const sources = (await Promise.all(queues.map((q) => listStructures(redis, q, states)))).flat();
    const { sources: readable, sizes } = await readableStructures(redis, sources, p);
    return readable.map((s, i) => ({ ...s, size: sizes[i] ?? 0 }));
  }

  async function prepare(): Promise<void> {
    if (failed) return;
    const queues = await scanQueues(redis, 'scanFailures', opts.queue === undefined ? undefined : [opts.queue]);
    const all = await sized(queues, ['retry', 'archived', 'pending', 'scheduled']);
    failed = all.filter((s) => s.state === 'retry' || s.state === 'archived');
    waiting = all.filter((s) => s.state === 'pending' || s.state === 'scheduled');
    p.total = all.reduce((n, s) => n + s.size, 0);
    p.queues = queues;
  }

  function readFailed(slice: Slice): void {
    const { queue, state } = slice.source;
    readTasks(slice, p, (f, id) => {
      groups.add({ queue, id: id.toString('utf8'), state: state as FailedState, type: f.typeText, retried: f.retried, errorMsg: f.errorText, lastFailedAt: f.lastFailedAt });
    });
  }

  /** Counts the waiting tasks of the not-found types of their queue (`byQueue`). */
  function countWaiting(byQueue: ReturnType<FailureGroups['notFoundTypesByQueue']>) {
    return ({ source, ids, msgs }: Slice): void => {
      const types = byQueue.get(source.queue)!;
      const field = source.state as 'pending' | 'scheduled';
      for (const msg of msgs) {
        const type = msg ? (readTaskMsg(msg)?.typeText ?? null) : null;
        const g = type === null ? undefined : types.get(type);
        if (g) g[field]++;
      }
      p.scanned += ids.length;
    };
  }

  async function run(): Promise<void> {
    await prepare();
    const sliceOpts = { maxSlice: opts.maxSlice, signal: opts.signal, onUnreadable: noteUnreadable(p) };
    await forEachSlice(redis, failed!, readFailed, sliceOpts);
    if (opts.signal?.aborted) return;
    p.phase = 'waiting';
    const byQueue = groups.notFoundTypesByQueue();
    // Only the queues where pass 1 found not-found failures are read; the rest count as scanned.
    const wanted = waiting.filter((src) => byQueue.has(src.queue));
    for (const src of waiting) if (!byQueue.has(src.queue)) p.scanned += src.size;
    await forEachSlice(redis, wanted, countWaiting(byQueue), sliceOpts);
    if (opts.signal?.aborted) return;
    p.phase = 'done';
    p.complete = true;
  }

  return { prepare, run, progress: () => ({ ...p, total: Math.max(p.total, p.scanned), queues: [...p.queues], unreadable: [...p.unreadable] }), groups };
}
