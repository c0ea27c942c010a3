/**
 * What asynq's archive limits (mutations/archive-limits.ts) will delete if `adding` tasks are
 * archived now, so the console can say so before an archive rather than after.
 */
import type { RedisClient } from '../redis-client';
import { assertQueueSlot } from '../topology';
import { invalidArgument, queueNotFound } from '../errors';
import * as k from '../keys';
import { asNumber } from '../reply';
import { execPipeline } from '../scripts';
import { ARCHIVE_DAYS, ARCHIVE_KEEP, archiveCutoff, archiveDrops, type ArchiveDrops } from '../mutations/archive-limits';

export interface ArchiveForecast extends ArchiveDrops {
  queue: string;
  adding: number;
  /** Archived tasks now. */
  archived: number;
  /** byAge + bySize: every archived task that goes. */
  deleted: number;
  keep: number;
  maxAgeDays: number;
  /** Unix seconds: archived at or before this goes by age. */
  cutoff: number;
}

/**
 * The forecast for `adding` tasks archived into `qname` at `now`. One round trip, O(log N) in
 * the archive: SISMEMBER asynq:queues, ZCARD and ZCOUNT -inf cutoff of asynq:{q}:archived.
 * Throws queue_not_found, invalid_argument for a negative or fractional `adding`.
 *
 * It is what asynq's rule gives, and what the console's archive then deletes (trimming what
 * its script leaves due in calls of its own: mutations/archive-trim.ts). Archives by workers
 * meanwhile also move it.
 */
export async function forecastArchive(redis: RedisClient, qname: string, adding: number, now: Date, timeZone?: string): Promise<ArchiveForecast> {
  const op = 'forecastArchive';
  if (!Number.isSafeInteger(adding) || adding < 0) throw invalidArgument(op, 'adding', 'adding must be a non-negative integer');
  assertQueueSlot(redis, op, qname);
  const cutoff = archiveCutoff(now, timeZone);
  const key = k.archivedKey(qname);
  const [[, member], [e1, card], [e2, old]] = (await execPipeline(redis, (p) =>
    p.sismember(k.ALL_QUEUES, qname).zcard(key).zcount(key, '-inf', cutoff),
  )) as [[Error | null, unknown], [Error | null, unknown], [Error | null, unknown]];
  if (member !== 1) throw queueNotFound(op, qname);
  if (e1) throw e1;
  if (e2) throw e2;
  const archived = asNumber(card) ?? 0;
  const drops = archiveDrops(archived, asNumber(old) ?? 0, adding);
  return { queue: qname, adding, archived, ...drops, deleted: drops.byAge + drops.bySize, keep: ARCHIVE_KEEP, maxAgeDays: ARCHIVE_DAYS, cutoff };
}
