/**
 * What asynq's archive limits will delete if N tasks of a queue are archived now.
 */
import { z } from 'zod';
import { intParam } from './common';

/** Up to the largest count a bulk or search action can report; 0 gives the age drops alone. */
export const archiveForecastQuery = z.object({ adding: intParam('adding', 0, Number.MAX_SAFE_INTEGER) });
export type ArchiveForecastQuery = z.infer<typeof archiveForecastQuery>;

export const archiveForecastSchema = z.object({
  queue: z.string(),
  adding: z.number(),
  /** Archived tasks now. */
  archived: z.number(),
  /** Archived 90 days ago or earlier: asynq deletes them on the next archive. */
  byAge: z.number(),
  /** Past the newest `keep` (9,999) once those are gone, oldest first. */
  bySize: z.number(),
  /** Of the tasks being archived, how many are deleted at once (more than `keep` added). */
  ofAdded: z.number(),
  /** byAge + bySize. */
  deleted: z.number(),
  keep: z.number(),
  maxAgeDays: z.number(),
  /** Unix seconds. */
  cutoff: z.number(),
});
export type ArchiveForecastDto = z.infer<typeof archiveForecastSchema>;
