/**
 * The audit log: one record per mutation request that reached its handler and was not refused
 * (done or failed), and a per-hour count of refused ones (4xx, or turned away before the
 * handler ran) per principal and route, kept apart so refusals never push changes out.
 */
import { z } from 'zod';
import { intParam } from './common';
import { roleSchema } from './auth';

export const auditTargetSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

export const auditRecordSchema = z.object({
  /** ISO-8601 time the request was answered (or, streamed, finished). */
  at: z.string(),
  user: z.string(),
  role: roleSchema,
  /** What was asked, e.g. `archive-all`, `run-task`, `pause-queue`. */
  action: z.string(),
  method: z.string(),
  path: z.string(),
  /** Queue, task ID, state… from the path and body. */
  target: auditTargetSchema,
  /** Tasks (or other items) changed: 0 when refused or failed. */
  count: z.number(),
  status: z.number(),
  /** The error code when failed (`redis_unavailable`…), else null. */
  code: z.string().nullable(),
  /** Archived tasks asynq's archive limit deleted to make room (bulk and search archive only). */
  trimmed: z.number().optional(),
  /**
   * The fields that were cut to fit the record's bound, each with its original length in
   * characters (UTF-16 code units): `{ "path": 412345, "target.type": 1048576 }`. A cut value
   * ends with `…`. Absent when nothing was cut.
   */
  cut: z.record(z.string(), z.number()).optional(),
});
export type AuditRecordDto = z.infer<typeof auditRecordSchema>;

export const auditQuery = z.object({
  page: intParam('page', 1).default(1),
  size: intParam('size', 1, 500).default(100),
});

/** Refused requests of one principal on one route within one window, counted. */
export const auditRefusalSchema = z.object({
  /** ISO-8601 start of the window (an hour). */
  window: z.string(),
  /** Who asked (cut to 64 characters); on an overflow entry, the last one that overflowed. */
  user: z.string(),
  role: roleSchema,
  method: z.string(),
  /** The route's pattern, e.g. `/api/queues/[qname]/bulk` (the path itself for an unlisted one). */
  route: z.string(),
  count: z.number(),
  /** ISO-8601 times of the window's first and last refusal. */
  first: z.string(),
  last: z.string(),
  /** Status and error code of the last refusal (`forbidden_role`, `read_only`…). */
  status: z.number(),
  code: z.string().nullable(),
  /**
   * True for the window's overflow entry: refusals of principals and routes beyond the
   * window's bound, counted together.
   */
  overflow: z.boolean(),
});
export type AuditRefusalDto = z.infer<typeof auditRefusalSchema>;

export const auditPageSchema = z.object({
  /** Newest first. */
  records: z.array(auditRecordSchema),
  /** Records kept (at most `maxRecords`). */
  total: z.number(),
  page: z.number(),
  size: z.number(),
  /** The record cap: the smaller of ASYNQLENS_AUDIT_MAX and what ASYNQLENS_AUDIT_MAX_BYTES allows. */
  maxRecords: z.number(),
  /** Refusals of the last 24 hours, newest window first, then most frequent first (at most 500). */
  refusals: z.array(auditRefusalSchema),
});
export type AuditPageDto = z.infer<typeof auditPageSchema>;
