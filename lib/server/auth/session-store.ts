import 'server-only';
import { createHash } from 'node:crypto';
import type { RedisClient } from '@asynqlens/asynq/redis-client';

/**
 * Sessions on the server, so that ending one is real: a copied cookie stops working once its
 * session key is gone. Per user, under one hash tag (their keys share a cluster slot):
 *
 *   asynqlens:{session:<tag>}:s:<sid>   "1", expiring after the idle timeout (renewed by use)
 *   asynqlens:{session:<tag>}:index     sorted set sid → absolute expiry (ms), at most
 *                                       MAX_SESSIONS_PER_USER, expiring with the newest session
 *
 * `<tag>` is a digest of the user name, which may itself contain `{` or `}`. Every key expires
 * by itself, so nothing here needs cleaning up.
 */
export const MAX_SESSIONS_PER_USER = 20;

const tag = (user: string) => createHash('sha256').update(user).digest('hex').slice(0, 16);
const sessionKey = (user: string, sid: string) => `asynqlens:{session:${tag(user)}}:s:${sid}`;
const indexKey = (user: string) => `asynqlens:{session:${tag(user)}}:index`;

/**
 * Sessions this process saw alive in the last CACHE_MS: a page load passes proxy.ts, the layout
 * and its API calls, and each would otherwise ask Redis again. The cost is that a session ended
 * on another replica still works here for up to CACHE_MS; one ended here stops at once.
 */
export const CACHE_MS = 1000;
const CACHE_MAX = 10_000;
const g = globalThis as unknown as { asynqlensLiveSessions?: Map<string, number> };
const live: Map<string, number> = (g.asynqlensLiveSessions ??= new Map<string, number>());

async function exec(m: ReturnType<RedisClient['multi']>): Promise<unknown[]> {
  const replies = (await m.exec()) ?? [];
  const failed = replies.find(([err]) => err !== null)?.[0];
  if (failed) throw failed;
  return replies.map(([, v]) => v);
}

/** A session key lives for the idle timeout, never past the session's absolute expiry (whole ms, at least 1). */
const ttlMs = (idleMs: number, expMs: number, now: number): number => Math.max(1, Math.ceil(Math.min(idleMs, expMs - now)));

export interface SessionRef {
  user: string;
  sid: string;
  /** Absolute expiry, unix ms. */
  expMs: number;
}

/**
 * Records a new session. One round trip (MULTI: SET PX, ZADD, ZREMRANGEBYSCORE, ZRANGE,
 * PEXPIREAT; O(log n) in the user's sessions), and a second (DEL + ZREM) only when the user
 * already had MAX_SESSIONS_PER_USER: the ones expiring first are ended.
 */
export async function createSession(redis: RedisClient, s: SessionRef, idleMs: number, now = Date.now()): Promise<void> {
  const index = indexKey(s.user);
  const [, , , over] = await exec(
    redis
      .multi()
      .set(sessionKey(s.user, s.sid), '1', 'PX', ttlMs(idleMs, s.expMs, now))
      .zadd(index, s.expMs, s.sid)
      .zremrangebyscore(index, '-inf', now)
      .zrange(index, 0, -(MAX_SESSIONS_PER_USER + 1))
      .pexpireat(index, s.expMs),
  );
  const evicted = (over as string[]).filter((sid) => sid !== s.sid);
  if (evicted.length === 0) return;
  await exec(redis.multi().del(...evicted.map((sid) => sessionKey(s.user, sid))).zrem(index, ...evicted));
  for (const sid of evicted) live.delete(sid);
}

/**
 * Whether the session is still alive, renewing its idle timeout if so: one PEXPIRE (O(1)),
 * skipped when this process saw it alive less than CACHE_MS ago.
 */
export async function touchSession(redis: RedisClient, s: SessionRef, idleMs: number, now = Date.now()): Promise<boolean> {
  if ((live.get(s.sid) ?? 0) > now) return true;
  const alive = (await redis.pexpire(sessionKey(s.user, s.sid), ttlMs(idleMs, s.expMs, now))) === 1;
  live.delete(s.sid);
  if (alive) {
    live.set(s.sid, now + CACHE_MS);
    if (live.size > CACHE_MAX) live.delete(live.keys().next().value as string);
  }
  return alive;
}

/** Ends one session (sign-out): one MULTI (DEL + ZREM). */
export async function endSession(redis: RedisClient, user: string, sid: string): Promise<void> {
  live.delete(sid);
  await exec(redis.multi().del(sessionKey(user, sid)).zrem(indexKey(user), sid));
}

/**
 * Ends every session of `user` (sign out everywhere); returns how many were open. Two round
 * trips: ZRANGE, then one MULTI of DEL (at most MAX_SESSIONS_PER_USER keys) and DEL of the index.
 */
export async function endAllSessions(redis: RedisClient, user: string): Promise<number> {
  const index = indexKey(user);
  const sids = await redis.zrange(index, 0, -1);
  for (const sid of sids) live.delete(sid);
  const m = redis.multi();
  if (sids.length > 0) m.del(...sids.map((sid) => sessionKey(user, sid)));
  const replies = await exec(m.del(index));
  return sids.length > 0 ? Number(replies[0]) : 0;
}
