/**
 * What the scans over task slices (duplicates, failure triage, the type census) share: their
 * two steps and the progress they report while a job polls them.
 */
import { readTaskMsg, type TaskMsgView } from '../task-msg-view';
import type { RedisClient } from '../redis-client';
import type { Slice } from './slices';
import { sizeStructures, type Structure } from './structures';

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
  /**
   * Keys of the structures passed over because they hold another type than asynq writes (at
   * most UNREADABLE_LIMIT of them); their tasks are in neither `scanned` nor `skipped`.
   */
  unreadable: string[];
}

/** Unreadable structure keys a scan names, at most: enough to act on, bounded in memory. */
export const UNREADABLE_LIMIT = 100;

/** The `onUnreadable` of a scan's slice options: records the structure's key in `progress`. */
export function noteUnreadable(progress: ScanProgress): (source: Slice['source']) => void {
  return (source) => {
    if (progress.unreadable.length < UNREADABLE_LIMIT) progress.unreadable.push(source.key);
  };
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

/**
 * The structures of `found` a scan can read, with their sizes (sizeStructures' round trips);
 * those whose key holds another type than asynq writes are left out and named in `progress`.
 */
export async function readableStructures<S extends Structure>(
  redis: RedisClient,
  found: readonly S[],
  progress: ScanProgress,
): Promise<{ sources: S[]; sizes: number[] }> {
  const bad = new Set<Structure>();
  const note = noteUnreadable(progress);
  const all = await sizeStructures(redis, found, (s) => {
    bad.add(s);
    note(s);
  });
  const keep = found.map((s) => !bad.has(s));
  return { sources: found.filter((_, i) => keep[i]), sizes: all.filter((_, i) => keep[i]) };
}
