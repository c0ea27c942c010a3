/**
 * Streams the tasks of chosen states of a queue through the duplicate grouper: a slice of IDs
 * with their msgs per call (SORT_RO ... GET), the next slice fetched while the previous one is
 * grouped. Every call is short (≤ 500 tasks, about 0.5 ms), so workers are served between
 * them; the scan stops when its signal is aborted.
 */
import { assertQueueSlot } from '../topology';
import type { RedisClient } from '../redis-client';
import type { TaskState } from '../states';
import { DuplicateGrouper, type DuplicateGroup } from './duplicate-groups';
import { scanQueues } from '../task-source/queues';
import { forEachSlice, type Slice } from '../task-source/slices';
import { listStructures, type Structure } from '../task-source/structures';
import { noteUnreadable, readableStructures, readTasks, type ScanProgress, type TaskScan } from '../task-source/task-scan';

/** Every state but active (tasks being processed right now are not worth deduplicating). */
export const DEFAULT_DUPLICATE_STATES: readonly TaskState[] = ['pending', 'scheduled', 'retry', 'archived', 'completed', 'aggregating'];

export interface DuplicateScanOptions {
  states?: readonly TaskState[];
  /** Sample task IDs kept per group (default 20). */
  samples?: number;
  /** Tasks per Redis call (default and maximum 500); fewer for large msgs (task-source/slices.ts). */
  batchSize?: number;
  signal?: AbortSignal;
}

/** A scan so far (skipped tasks are not grouped). */
export interface DuplicateReport extends ScanProgress {
  exactGroups: number;
  nearGroups: number;
  /** Tasks beyond the first of each exact group: what "keep one of each" would delete. */
  surplusTasks: number;
  /** Some near-duplicate shapes went untracked (more than 100,000 distinct JSON shapes). */
  nearCapped: boolean;
  /** The largest groups, largest first. */
  groups: DuplicateGroup[];
}

/** prepare() throws queue_not_found for an unknown queue. */
export interface DuplicateScan extends TaskScan {
  /** The groups found so far, the `limit` largest (default 200). Cheap enough to poll. */
  report(limit?: number): DuplicateReport;
}

/**
 * A duplicate scan over `states` of queue `qname` (default: all but active). Nothing is read
 * until prepare() or run(). Round trips: SISMEMBER, then a few to size the states (one SSCAN
 * per 1,000 groups, one pipeline per 1,000 structures), then one per slice of ≤ 500 tasks.
 */
export function createDuplicateScan(redis: RedisClient, qname: string, opts: DuplicateScanOptions = {}): DuplicateScan {
  assertQueueSlot(redis, 'scanDuplicates', qname);
  const states = opts.states ?? DEFAULT_DUPLICATE_STATES;
  const grouper = new DuplicateGrouper(states, { samples: opts.samples ?? 20 });
  const progress: ScanProgress = { complete: false, scanned: 0, total: 0, skipped: 0, unreadable: [] };

  let sources: Structure[] | null = null;

  async function prepare(): Promise<void> {
    if (sources) return;
    await scanQueues(redis, 'scanDuplicates', [qname]);
    const { sources: readable, sizes } = await readableStructures(redis, await listStructures(redis, qname, states, noteUnreadable(progress)), progress);
    progress.total = sizes.reduce((a, b) => a + b, 0);
    sources = readable;
  }

  function group(slice: Slice): void {
    const stateIdx = states.indexOf(slice.source.state);
    readTasks(slice, progress, (msg, id) => grouper.add(id, stateIdx, msg.type, msg.payload));
  }

  async function run(): Promise<void> {
    await prepare();
    await forEachSlice(redis, sources!, group, { maxSlice: opts.batchSize, signal: opts.signal, onUnreadable: noteUnreadable(progress) });
    if (opts.signal?.aborted) return;
    progress.complete = true;
  }

  function report(limit = 200): DuplicateReport {
    return {
      ...progress,
      exactGroups: grouper.exactGroups,
      nearGroups: grouper.nearGroups,
      surplusTasks: grouper.surplusTasks,
      nearCapped: grouper.nearCapped,
      groups: grouper.groups(limit),
    };
  }

  return { prepare, run, report };
}
