/**
 * Enqueue options in the `String()` form of asynq's Go options (`Queue("low")`,
 * `MaxRetry(3)`, `Timeout(1m30s)`), which a SchedulerEntry stores and Go's Inspector parses.
 */
import { goQuote } from '../../errors';
import type { EnqueueOptions } from '../../client/options';

/** Go's time.Duration String() for a whole number of seconds: 30s, 1m30s, 1h0m0s. */
export function goDuration(seconds: number): string {
  const s = Math.trunc(seconds);
  if (s === 0) return '0s';
  const sign = s < 0 ? '-' : '';
  const abs = Math.abs(s);
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const sec = abs % 60;
  if (h > 0) return `${sign}${h}h${m}m${sec}s`;
  if (m > 0) return `${sign}${m}m${sec}s`;
  return `${sign}${sec}s`;
}

/** The options asynq would list for `o`, in the order asynq's client applies them. */
export function optionStrings(o: EnqueueOptions): string[] {
  const out: string[] = [];
  if (o.maxRetry !== undefined) out.push(`MaxRetry(${Math.max(0, Math.trunc(o.maxRetry))})`);
  if (o.queue !== undefined) out.push(`Queue(${goQuote(o.queue)})`);
  if (o.taskId !== undefined) out.push(`TaskID(${goQuote(o.taskId)})`);
  if (o.timeoutSeconds !== undefined) out.push(`Timeout(${goDuration(o.timeoutSeconds)})`);
  if (o.uniqueTtlSeconds !== undefined) out.push(`Unique(${goDuration(o.uniqueTtlSeconds)})`);
  if (o.processInSeconds !== undefined) out.push(`ProcessIn(${goDuration(o.processInSeconds)})`);
  if (o.retentionSeconds !== undefined) out.push(`Retention(${goDuration(o.retentionSeconds)})`);
  if (o.group !== undefined) out.push(`Group(${goQuote(o.group)})`);
  return out;
}
