/**
 * Attention signals (GET /api/attention, the overview's panel, the alert webhook): what needs an
 * operator now, each with a cause in plain words and a link to the evidence. Isomorphic.
 */
import { z } from 'zod';

export const SIGNAL_CODES = [
  /** Pending tasks in a queue no live server consumes. */
  'no_consumers',
  /** New `handler not found for task "T"` failures. */
  'handler_not_found',
  /** The archive is near asynq's 10,000-task limit: its oldest tasks will be deleted without a word. */
  'archive_near_limit',
  /** Active tasks whose lease expired: their worker is gone. */
  'lease_expired',
  /** Failures per second well above the queue's own baseline for this hour. */
  'fail_spike',
  /** Latency well above the queue's own baseline for this hour. */
  'latency_high',
  /** A paused queue with a growing backlog. */
  'paused_backlog',
  /** An archived task's fixed ID will refuse the next enqueue of that ID. */
  'archived_blocks_task_id',
  /** A unique lock held by an archived task: enqueues of that task are refused until the TTL ends. */
  'archived_holds_lock',
] as const;
export const signalCodeSchema = z.enum(SIGNAL_CODES);
export type SignalCode = z.infer<typeof signalCodeSchema>;

export const SEVERITIES = ['critical', 'warning', 'info'] as const;
export const severitySchema = z.enum(SEVERITIES);
export type Severity = z.infer<typeof severitySchema>;

export const signalSchema = z.object({
  code: signalCodeSchema,
  queue: z.string(),
  severity: severitySchema,
  /** ISO-8601 UTC: when the condition was first seen (or, where Redis records it, began). */
  since: z.string(),
  /** The cause in plain words, with counts, names and times. */
  message: z.string(),
  /** The click that shows it: a console path (with its query) and the words of the link. */
  evidence: z.object({ href: z.string(), label: z.string() }),
});
export type SignalDto = z.infer<typeof signalSchema>;

export const attentionSchema = z.object({ signals: z.array(signalSchema) });
export type AttentionDto = z.infer<typeof attentionSchema>;
