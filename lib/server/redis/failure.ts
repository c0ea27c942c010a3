import 'server-only';
import { NotSentError, ReplyLostError } from '@asynqlens/asynq/redis';

/**
 * What a failed Redis command tells us about Redis, and about whether a change was applied:
 * - `not_sent`: the command never reached Redis (refused while reconnecting, connect failed):
 *   nothing was changed;
 * - `reply_lost`: written, then the connection dropped before the reply: it may have run;
 * - `timeout`: written, no reply within the command timeout: Redis is stalled, and it may yet run;
 * - `lost`: any other connection failure; treated like `reply_lost` for changes;
 * - `refused`: Redis answered with a refusal that runs nothing — credentials (WRONGPASS,
 *   NOAUTH), ACL (NOPERM), a demoted master (READONLY), a loading or leaderless server (LOADING,
 *   MASTERDOWN, CLUSTERDOWN, TRYAGAIN), or a server refusing writes: too few replicas
 *   (NOREPLICAS, `min-replicas-to-write`), out of memory (OOM, `maxmemory` with noeviction),
 *   a failed snapshot (MISCONF, `stop-writes-on-bgsave-error`), a script running too long (BUSY).
 *   Nothing was changed; reads may still work.
 */
export type RedisFailure = 'not_sent' | 'reply_lost' | 'timeout' | 'lost' | 'refused';

const REFUSED = /^(WRONGPASS|NOAUTH|NOPERM|READONLY|LOADING|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|NOREPLICAS|OOM|MISCONF|BUSY)\b/;

/**
 * Refusals before anything is written: connect errors, ioredis' disabled offline queue (a plain
 * connection's and a Cluster client's), and a Cluster client that reached none of its nodes.
 */
const NOT_SENT = /Stream isn't writeable|Cluster isn't ready|None of startup nodes is available|Failed to refresh slots cache|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|connect ETIMEDOUT/i;
/** ioredis and Node words for a connection that was lost or never answered. */
const LOST = /ECONNRESET|EPIPE|ETIMEDOUT|Connection is closed|max retries per request|Command aborted due to connection close|Socket closed unexpectedly/i;

export function classifyRedisFailure(err: unknown): RedisFailure | null {
  if (err instanceof NotSentError) return 'not_sent';
  if (err instanceof ReplyLostError) return 'reply_lost';
  if (!(err instanceof Error)) return null;
  if (err.message === 'Command timed out') return 'timeout';
  if (REFUSED.test(err.message)) return 'refused';
  if (NOT_SENT.test(err.message)) return 'not_sent';
  if (LOST.test(err.message)) return 'lost';
  return null;
}

/** ioredis' own wording is for developers; this is what a person reading a banner needs. */
export function describeFailure(kind: RedisFailure, err: Error, timeoutMs: number, lastConnectionError?: string): string {
  if (kind === 'timeout') return `stalled: not answering within ${timeoutMs} ms`;
  if (kind === 'refused') return `refusing the console: ${err.message}`;
  // A request only sees that the connection is down; why (a refused password, an untrusted
  // certificate) arrived on the connection, and is what the operator needs to read.
  const why = lastConnectionError && lastConnectionError !== err.message ? ` (last connection error: ${lastConnectionError})` : '';
  if (/Stream isn't writeable|Cluster isn't ready/.test(err.message)) return `unreachable: not connected (reconnecting)${why}`;
  return `unreachable: ${err.message}${why}`;
}
