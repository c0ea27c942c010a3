import 'server-only';
import { connectNow, needsConnect } from '@asynqlens/asynq/redis';
import { brandErrorClass } from '@asynqlens/asynq/error-brand';
import { env } from '../config/env';
import { classifyRedisFailure } from './failure';
import { getRedis } from './client';

/**
 * Remembers that Redis stopped answering, so that requests fail at once instead of each one
 * waiting out the command timeout in turn (twenty polling tabs would otherwise pile up twenty
 * requests, each stuck for the full timeout, behind the same stall).
 *
 * A command that times out marks Redis as stalled; from then on route() refuses requests with
 * a 503 before they send anything, while exactly one PING probes on the same connection. The
 * PING is queued behind whatever is stuck there, so it answers the moment Redis serves this
 * connection again (DEBUG SLEEP over, CLIENT PAUSE lifted, a long script done) and the mark is
 * cleared. A probe that times out is followed by the next one at once: each waits the command
 * timeout, so a stall costs Redis one PING per timeout period. A probe that fails for another
 * reason (connection lost) also clears the mark: such failures are fast by themselves, and
 * requests then report them in their own words.
 */
export class RedisStalledError extends Error {
  override readonly name = 'RedisStalledError';
  constructor(readonly sinceMs: number) {
    super('Redis is stalled');
  }
}
brandErrorClass(RedisStalledError, 'RedisStalledError');

/** On globalThis like the connection itself: one mark per process, whatever bundles Next makes. */
const g = globalThis as unknown as { asynqlensStall?: { since: number } | null };

/** Called with every failed request's error: a timeout starts the stall and its probe. */
export function noteRedisFailure(err: unknown): void {
  if (classifyRedisFailure(err) !== 'timeout' || g.asynqlensStall) return;
  g.asynqlensStall = { since: Date.now() };
  void probe();
}

async function probe(): Promise<void> {
  while (g.asynqlensStall) {
    try {
      await getRedis().ping();
      g.asynqlensStall = null;
    } catch (err) {
      if (classifyRedisFailure(err) !== 'timeout') g.asynqlensStall = null;
    }
  }
}

/**
 * Run before a request's first Redis command: throws {@link RedisStalledError} while Redis is
 * marked stalled (costs nothing), and, when the connection is between reconnect attempts,
 * reconnects now (see connectNow), so the first request after Redis returns succeeds and a
 * request while Redis is down fails after one refused connect instead of a long wait.
 */
export async function checkRedis(): Promise<void> {
  const stall = g.asynqlensStall;
  if (stall) throw new RedisStalledError(Date.now() - stall.since);
  const redis = getRedis();
  // The usual case, a connected client: nothing to wait for (no timer per request).
  if (!needsConnect(redis)) return;
  // Bounded: behind Sentinel a connect can keep asking the sentinels until a failover ends.
  // Past the command timeout the request goes on and fails at once, as "not connected".
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, env().ASYNQLENS_COMMAND_TIMEOUT_MS)));
  try {
    await Promise.race([connectNow(redis), bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether a stall is marked (for tests and the health page). */
export function isRedisStalled(): boolean {
  return Boolean(g.asynqlensStall);
}
