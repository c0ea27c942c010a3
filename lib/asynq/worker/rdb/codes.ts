/**
 * The one place where the worker scripts' negative return codes become errors, and the small
 * time helpers every worker script call shares.
 */
import { AsynqError, goQuote } from '../../errors';

/** asynq's per-day counters live 90 days after the day's first increment. */
const STATS_TTL_SECONDS = 90 * 24 * 3600;
/** Go's math.MaxInt64 as go-redis writes it; the scripts reset a total that reaches it. */
export const MAX_INT64 = '9223372036854775807';
/** asynq's LeaseDuration. */
export const LEASE_SECONDS = 30;

/** Unix seconds, truncated like Go's `t.Unix()`. */
export const unixSeconds = (t: Date): number => Math.floor(t.getTime() / 1000);
/** EXPIREAT of a daily counter first incremented at `now`. */
export const statsExpiry = (now: Date): number => unixSeconds(now) + STATS_TTL_SECONDS;
/** Unix nanoseconds as a decimal string (beyond 2^53, so never a JS number). */
export const unixNanos = (t: Date): string => (BigInt(t.getTime()) * 1_000_000n).toString();

const FINISH_CODES: Record<number, string> = {
  [-1]: 'is not in the active list',
  [-2]: 'has no lease',
  [-3]: 'has no task hash',
  [-4]: 'is already in the completed set',
};

/**
 * Checks a finishing script's reply (done, complete, requeue, retry, archive): 1 is success;
 * anything else means the task is no longer this worker's (asynq replies `NOT FOUND` there),
 * typically because a recoverer already moved it after the lease ran out.
 * Throws task_not_found for the known codes, internal for anything else.
 */
export function checkFinish(op: string, qname: string, id: string, reply: unknown): void {
  if (reply === 1) return;
  const why = typeof reply === 'number' ? FINISH_CODES[reply] : undefined;
  if (why) {
    throw new AsynqError('NOT_FOUND', 'task_not_found', `NOT FOUND: task ${id} in queue ${goQuote(qname)} ${why}`, op, {
      queue: qname,
      id,
      code: reply,
    });
  }
  throw new AsynqError('INTERNAL', 'internal', `${op}: unexpected script reply ${JSON.stringify(reply)}`, op, { queue: qname, id });
}
