/**
 * What asynq's archive limits will delete if N tasks of a queue are archived now.
 */
import { z } from 'zod';
import { intParam } from './common';

/** Up to the largest count a bulk or search action can report; 0 gives the age drops alone. */
export const archiveForecastQuery = z.object({ adding: intParam('adding', 0, Number.MAX_SAFE_INTEGER) });
export type ArchiveForecastQuery = z.infer<typeof archiveForecastQuery>;

/** A number of tasks, or of days. */
const count = z.number().int().nonnegative();

export const archiveForecastSchema = z.object({
  queue: z.string(),
  adding: count,
  /** Archived tasks now. */
  archived: count,
  /** Archived 90 days ago or earlier: asynq deletes them on the next archive. */
  byAge: count,
  /** Past the newest `keep` (9,999) once those are gone, oldest first. */
  bySize: count,
  /** Of the tasks being archived, how many are deleted at once (more than `keep` added). */
  ofAdded: count,
  /** byAge + bySize. */
  deleted: count,
  keep: count,
  maxAgeDays: count,
  /** Unix seconds. */
  cutoff: z.number().int(),
});
export type ArchiveForecastDto = z.infer<typeof archiveForecastSchema>;
