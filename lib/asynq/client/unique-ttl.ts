/**
 * The unique TTL a task was enqueued with, read back from its lock. asynq keeps no TTL in the
 * task (the TaskMessage names only the lock's key), but the lock it took at enqueue ends at a
 * time the TTL fixes: enqueue time + TTL for a task enqueued to run at once (its pending_since
 * is that enqueue time), process time + TTL for a scheduled one (client.go `schedule`, see
 * scheduledLockTtl). While the task still holds its lock in the state that dates it, lock end
 * − that time is the TTL, to within a few seconds: the lock is whole seconds, and a task the
 * forwarder moved to pending got its pending_since up to a forwarder interval (5 s) after its
 * process time. So the answer is snapped to the whole minute when it is that close to one, as
 * TTLs are written (Unique(time.Hour)), else whole seconds.
 */
import type { TaskInfo } from '../types';

/** How far from a whole minute an estimate may be and still be taken for that minute. */
const SNAP_S = 5;

/**
 * The task's unique TTL in seconds, or null when its lock no longer tells: no lock, held by
 * another task, gone, without expiry, or a task in a state whose lock start is not recorded
 * (active, retry, archived, completed, aggregating; or pending after a retry).
 */
export function uniqueTtlFromLock(t: TaskInfo, now: Date): number | null {
  const lock = t.uniqueLock;
  if (!lock || !lock.ownedByThisTask || lock.ttlSeconds === null || lock.ttlSeconds < 0) return null;
  let startMs: number | null = null;
  if (t.state === 'scheduled') startMs = t.nextProcessAt?.getTime() ?? null;
  else if (t.state === 'pending' && (t.message?.retried ?? 0) === 0 && t.pendingSince && /^\d+$/.test(t.pendingSince)) {
    startMs = Number(BigInt(t.pendingSince) / 1_000_000n);
  }
  if (startMs === null) return null;
  const raw = (now.getTime() + lock.ttlSeconds * 1000 - startMs) / 1000;
  if (raw < 1) return null;
  const minute = Math.round(raw / 60) * 60;
  return minute > 0 && Math.abs(raw - minute) <= SNAP_S ? minute : Math.round(raw);
}
