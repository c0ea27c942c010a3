/** asynq keeps at most 10 000 (in effect 9 999) archived tasks per queue, for 90 days. */
export const MAX_ARCHIVE_SIZE = 10_000;
const ARCHIVE_DAYS = 90;

/** The archive cutoff: `now` minus 90 calendar days (Go's AddDate), in Unix seconds. */
export function archiveCutoff(now: Date): number {
  const d = new Date(now.getTime());
  d.setUTCDate(d.getUTCDate() - ARCHIVE_DAYS);
  return Math.floor(d.getTime() / 1000);
}
