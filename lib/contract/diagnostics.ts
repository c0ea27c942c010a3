/**
 * Diagnostics: unique locks (listing, release) and duplicate tasks (scan, resolve).
 */
import { z } from 'zod';
import { intParam, isoTime, queueName } from './common';
import { taskStateSchema, type TaskStateDto } from './tasks';

const MAX_SCAN_CURSOR = BigInt('18446744073709551615');

export const lockListQuery = z.object({
  /** The `cursor` of the previous page; absent for the first. */
  cursor: z
    .string()
    .regex(/^\d{1,20}$/, 'cursor must be the cursor returned by the previous page')
    // SCAN's cursor is an unsigned 64-bit number; a larger one is Redis' "invalid cursor".
    .refine((c) => !/^\d{1,20}$/.test(c) || BigInt(c) <= MAX_SCAN_CURSOR, 'cursor must be the cursor returned by the previous page')
    .optional(),
});
export type LockListQuery = z.infer<typeof lockListQuery>;

/** The per-queue listing also answers for one lock: `?key=K` (the lock a task names). */
export const queueLockListQuery = lockListQuery.extend({
  key: z.string().min(1, 'key cannot be empty').optional(),
});
export type QueueLockListQuery = z.infer<typeof queueLockListQuery>;

export const lockReleaseQuery = z.object({
  key: z.string().min(1, 'key is required'),
  /** The holder the operator saw: the lock is released only while that task still holds it. */
  holder: z.string().min(1, 'holder cannot be empty').optional(),
});
export type LockReleaseQuery = z.infer<typeof lockReleaseQuery>;

export const lockFindingCode = z.enum(['held_by_archived', 'expires_before_retries_end', 'orphaned', 'no_expiry']);

export const lockSchema = z.object({
  queue: z.string(),
  key: z.string(),
  taskType: z.string(),
  /** Hex MD5 of the payload; '' for a nil payload; null when the key is not asynq's shape. */
  payloadMd5: z.string().nullable(),
  /** Seconds left (ms precision); -1 = no expiry. */
  ttlSeconds: z.number(),
  expiresAt: isoTime,
  holderId: z.string(),
  /** null when the holder's task hash is gone. */
  holderState: z.string().nullable(),
  /** Read for retry holders (and holders whose hash names no lock); null otherwise. */
  holderRetried: z.number().nullable(),
  holderMaxRetry: z.number().nullable(),
  /** Retry holders: when the next attempt runs. */
  holderNextAttemptAt: isoTime,
  findings: z.array(z.object({ code: lockFindingCode, message: z.string() })),
});
export type LockDto = z.infer<typeof lockSchema>;

export const lockListSchema = z.object({
  locks: z.array(lockSchema),
  /** Pass back as `?cursor=` for the next page; null when the scan is complete. */
  cursor: z.string().nullable(),
});
export type LockListDto = z.infer<typeof lockListSchema>;

const ALL_STATES: TaskStateDto[] = ['pending', 'active', 'scheduled', 'retry', 'archived', 'completed', 'aggregating'];
const DEFAULT_STATES = ALL_STATES.filter((s) => s !== 'active');

/** `?states=pending,retry`: a comma-separated list of task states; absent = all but active. */
const statesParam = z
  .string()
  .optional()
  .transform((s, ctx): TaskStateDto[] => {
    if (s === undefined || s.trim() === '') return DEFAULT_STATES;
    const states: TaskStateDto[] = [];
    for (const x of new Set(s.split(',').map((v) => v.trim()))) {
      const parsed = taskStateSchema.safeParse(x);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: `${JSON.stringify(x)} is not a task state (pending, active, scheduled, retry, archived, completed, aggregating)` });
        return z.NEVER;
      }
      states.push(parsed.data);
    }
    return ALL_STATES.filter((st) => states.includes(st));
  });

export const duplicatesQuery = z.object({
  states: statesParam,
  /** Sample task IDs kept per group (2-10000, default 20); larger lets one resolve clear bigger groups. */
  samples: intParam('samples', 2, 10_000).default(20),
});
export type DuplicatesQuery = z.infer<typeof duplicatesQuery>;

export const duplicateGroupSchema = z.object({
  kind: z.enum(['exact', 'near']),
  /** Stable across scans of the same data, for list keys and selection. */
  id: z.string(),
  taskType: z.string(),
  count: z.number(),
  /** Up to `samples` IDs, oldest first; the same IDs as `tasks`. */
  taskIds: z.array(z.string()),
  tasks: z.array(z.object({ id: z.string(), state: z.string() })),
  /** Near groups: dotted paths of the fields whose values differ (may be empty: key order or spacing only). */
  varyingFields: z.array(z.string()),
  payloadMd5: z.string().nullable(),
  distinctPayloads: z.number(),
});
export type DuplicateGroupDto = z.infer<typeof duplicateGroupSchema>;

export const duplicatesReportSchema = z.object({
  queue: queueName,
  states: z.array(taskStateSchema),
  complete: z.boolean(),
  scanned: z.number(),
  total: z.number(),
  skipped: z.number(),
  /** Keys passed over because they hold another type than asynq writes (at most 100). */
  unreadable: z.array(z.string()),
  exactGroups: z.number(),
  nearGroups: z.number(),
  /** Tasks beyond the first of each exact group. */
  surplusTasks: z.number(),
  nearCapped: z.boolean(),
  startedAt: z.string(),
  finishedAt: isoTime,
  /** The 200 largest groups, largest first. */
  groups: z.array(duplicateGroupSchema),
});
export type DuplicatesReportDto = z.infer<typeof duplicatesReportSchema>;

export const resolveDuplicatesBody = z
  .object({
    /** The tasks to delete (the UI sends all but the first of each group). */
    taskIds: z.array(z.string().min(1, 'task IDs cannot be empty')).min(1, 'taskIds must not be empty').max(100_000, 'at most 100000 taskIds per request'),
  })
  .strict();
export type ResolveDuplicatesBody = z.infer<typeof resolveDuplicatesBody>;

export const resolveDuplicatesResult = z.object({
  deleted: z.number(),
  failed: z.array(z.object({ id: z.string(), error: z.object({ code: z.string(), message: z.string() }) })),
});
export type ResolveDuplicatesResultDto = z.infer<typeof resolveDuplicatesResult>;
