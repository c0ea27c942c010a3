/**
 * What the scans over task slices (duplicates, failure triage, the type census) share: their
 * two steps and the progress they report while a job polls them.
 */
import { readTaskMsg, type TaskMsgView } from '../task-msg-view';
import type { Slice } from './slices';

/** A scan that reads nothing until prepare() or run(). */
export interface TaskScan {
  /** Checks the queues and sizes what the scan reads (so `total` is known); run() does it when not done yet. */
  prepare(): Promise<void>;
  /** Reads to the end, or until the signal is aborted. Rejects on a Redis error. */
  run(): Promise<void>;
}

/** How far a scan got; cheap to poll. */
export interface ScanProgress {
  /** The scan reached the end of what it reads. */
  complete: boolean;
  /** Tasks read so far. */
  scanned: number;
  /** Tasks in what the scan reads when it started. */
  total: number;
  /** Tasks whose hash or msg was missing or not a well-formed TaskMessage. */
  skipped: number;
}

/**
 * Hands each task of `slice` whose msg reads as a TaskMessage to `onTask`; counts the others
 * in `progress.skipped` and every task in `progress.scanned`.
 */
export function readTasks(slice: Slice, progress: ScanProgress, onTask: (msg: TaskMsgView, id: Buffer) => void): void {
  slice.ids.forEach((id, i) => {
    const raw = slice.msgs[i];
    const msg = raw ? readTaskMsg(raw) : null;
    if (msg === null) progress.skipped++;
    else onTask(msg, id);
  });
  progress.scanned += slice.ids.length;
}
