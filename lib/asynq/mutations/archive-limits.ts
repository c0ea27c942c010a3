/**
 * asynq's archive limits (internal/rdb: `maxArchiveSize`, `archivedExpirationInDays`). Every
 * archive, asynq's and ours, then runs ZREMRANGEBYSCORE -inf cutoff and ZREMRANGEBYRANK
 * 0 -10000: tasks archived 90 days ago or earlier go, and only the newest 9 999 stay.
 */
import { addDaysInZone } from '../time-zone';

export const MAX_ARCHIVE_SIZE = 10_000;
/** What ZREMRANGEBYRANK 0 -MAX_ARCHIVE_SIZE leaves: one fewer than the "size". */
export const ARCHIVE_KEEP = MAX_ARCHIVE_SIZE - 1;
export const ARCHIVE_DAYS = 90;

/** The zone the 90 days are counted in unless the caller names the servers' zone. */
export const DEFAULT_ARCHIVE_TIME_ZONE = 'UTC';

/**
 * The archive cutoff in Unix seconds: `now` minus 90 calendar days counted in `timeZone`,
 * asynq's `now.AddDate(0, 0, -90).Unix()` in a process whose local zone is `timeZone`. In UTC
 * it is exactly 90 × 24 h; in a zone with summer time an hour more or less across a change
 * (docs/api.md, "Archive cutoff time zone").
 */
export function archiveCutoff(now: Date, timeZone: string = DEFAULT_ARCHIVE_TIME_ZONE): number {
  return Math.floor(addDaysInZone(now, -ARCHIVE_DAYS, timeZone).getTime() / 1000);
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
