/**
 * asynq's archive limits (internal/rdb: `maxArchiveSize`, `archivedExpirationInDays`). Every
 * archive, asynq's and ours, then runs ZREMRANGEBYSCORE -inf cutoff and ZREMRANGEBYRANK
 * 0 -10000: tasks archived 90 days ago or earlier go, and only the newest 9 999 stay.
 */
export const MAX_ARCHIVE_SIZE = 10_000;
/** What ZREMRANGEBYRANK 0 -MAX_ARCHIVE_SIZE leaves: one fewer than the "size". */
export const ARCHIVE_KEEP = MAX_ARCHIVE_SIZE - 1;
export const ARCHIVE_DAYS = 90;

/**
 * The archive cutoff: `now` minus 90 days counted in UTC, in Unix seconds. Go's AddDate counts
 * them in the process' local zone, an hour apart across a summer-time change (docs/api.md,
 * "Archive cutoff time zone").
 */
export function archiveCutoff(now: Date): number {
  const d = new Date(now.getTime());
  d.setUTCDate(d.getUTCDate() - ARCHIVE_DAYS);
  return Math.floor(d.getTime() / 1000);
}

export interface ArchiveDrops {
  /** Archived tasks at or before the cutoff: dropped by age. */
  byAge: number;
  /** Archived tasks (old or just added) past the newest 9 999 once the old ones are gone. */
  bySize: number;
  /** Of the tasks being archived, those that go at once (when more than 9 999 are added). */
  ofAdded: number;
}

/**
 * What the limits drop when `adding` tasks join an archive of `archived` tasks, `expired` of
 * them past the cutoff. The added tasks are scored `now`, so they are the newest: the size
 * limit takes the oldest remaining tasks first, and added ones only past 9 999 of them.
 */
export function archiveDrops(archived: number, expired: number, adding: number): ArchiveDrops {
  const bySize = Math.max(0, archived - expired + adding - ARCHIVE_KEEP);
  return { byAge: expired, bySize, ofAdded: Math.max(0, adding - ARCHIVE_KEEP) };
}
