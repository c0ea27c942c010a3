/**
 * The audit log: one record per mutation request (done, refused or failed).
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
  /** The error code when refused or failed (`forbidden_role`, `task_not_found`…), else null. */
  code: z.string().nullable(),
});
export type AuditRecordDto = z.infer<typeof auditRecordSchema>;

export const auditQuery = z.object({
  page: intParam('page', 1).default(1),
  size: intParam('size', 1, 500).default(100),
});

export const auditPageSchema = z.object({
  /** Newest first. */
  records: z.array(auditRecordSchema),
  /** Records kept (at most ASYNQLENS_AUDIT_MAX). */
  total: z.number(),
  page: z.number(),
  size: z.number(),
});
export type AuditPageDto = z.infer<typeof auditPageSchema>;
