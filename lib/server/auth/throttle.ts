import 'server-only';
import type { RedisClient } from '@asynqlens/asynq/redis-client';

/**
 * Sign-in throttling, in Redis so that every replica sees the same counts. All keys share the
 * hash tag `{login}` (one cluster slot, so each step is one MULTI), expire by themselves, and
 * are small: one counter per address with recent failures, one per configured user (every
 * unknown name shares one, so made-up names cannot grow Redis), and short-lived turn keys.
 *
 * - An address gets FREE_PER_ADDRESS failures, then one attempt per growing delay (1 s, 2 s,
 *   4 s … up to MAX_DELAY_MS), whatever names it tries.
 * - An account gets FREE_PER_ACCOUNT failures, then one attempt per growing delay, shared by
 *   every address that has failed recently. An address with no recent failure skips the
 *   account's delay: nobody can keep a user out by guessing at their account, and a correct
 *   password from a clean address signs in at once. The price is one guess per fresh address
 *   per WINDOW_MS (an IPv6 /64 counts as one address; see client-address.ts).
 * - One attempt in flight per address, so a burst of parallel requests cannot all slip in
 *   before the first failure is counted.
 * Nothing is ever locked: failures are forgotten WINDOW_MS after the last one.
 */
export interface ThrottlePolicy {
  freePerAddress: number;
  freePerAccount: number;
  firstDelayMs: number;
  maxDelayMs: number;
  windowMs: number;
  /** How long an in-flight attempt holds its address (longer than any scrypt check). */
  busyMs: number;
}

export const DEFAULT_POLICY: ThrottlePolicy = {
  freePerAddress: 10,
  freePerAccount: 5,
  firstDelayMs: 1000,
  maxDelayMs: 5 * 60_000,
  windowMs: 60 * 60_000,
  busyMs: 10_000,
};

const PREFIX = 'asynqlens:{login}';
const fails = (kind: 'addr' | 'user', id: string) => `${PREFIX}:fails:${kind}:${id}`;
const turn = (kind: 'addr' | 'user', id: string) => `${PREFIX}:turn:${kind}:${id}`;
const busy = (addr: string) => `${PREFIX}:busy:${addr}`;

/** The delay owed after `n` failures when `free` cost nothing: 0, then 1×, 2×, 4× … the first delay, capped. */
export function delayAfter(n: number, free: number, p: ThrottlePolicy): number {
  return n < free ? 0 : Math.ceil(Math.min(p.firstDelayMs * 2 ** Math.min(n - free, 30), p.maxDelayMs));
}

export interface Attempt {
  addr: string;
  /** The configured user's name, or '?' for any unknown name. */
  account: string;
}

export type Gate = { ok: true } | { ok: false; retryAfterMs: number };

async function exec(m: ReturnType<RedisClient['multi']>): Promise<unknown[]> {
  const replies = (await m.exec()) ?? [];
  const failed = replies.find(([err]) => err !== null)?.[0];
  if (failed) throw failed;
  return replies.map(([, v]) => v);
}

/**
 * Whether an attempt may go on to the password check. One round trip (MULTI: SET NX, two GETs,
 * two PTTLs), plus one (SET NX) when the account's delay applies and one (DEL) when refused.
 * An admitted attempt holds its address until {@link settle}.
 */
export async function admit(redis: RedisClient, a: Attempt, p: ThrottlePolicy = DEFAULT_POLICY): Promise<Gate> {
  const [free, addrN, userN, addrWait, userWait] = await exec(
    redis.multi().set(busy(a.addr), '1', 'PX', p.busyMs, 'NX').get(fails('addr', a.addr)).get(fails('user', a.account)).pttl(turn('addr', a.addr)).pttl(turn('user', a.account)),
  );
  if (free !== 'OK') return { ok: false, retryAfterMs: 1000 };
  const refuse = async (ms: number): Promise<Gate> => {
    await redis.del(busy(a.addr));
    return { ok: false, retryAfterMs: Math.max(1000, ms) };
  };
  // The address's turn key (set by settle) lives for its delay; only this address's one
  // in-flight attempt reads it, so reading is enough.
  if (delayAfter(Number(addrN ?? 0), p.freePerAddress, p) > 0 && Number(addrWait) > 0) return refuse(Number(addrWait));
  const byUser = Number(addrN ?? 0) > 0 ? delayAfter(Number(userN ?? 0), p.freePerAccount, p) : 0;
  if (byUser === 0) return { ok: true };
  // The account's turn is shared by every address that failed recently: the first to find it
  // gone takes it (SET NX), so parallel attempts from many addresses still get one turn.
  if (Number(userWait) > 0) return refuse(Number(userWait));
  if ((await redis.set(turn('user', a.account), '1', 'PX', byUser, 'NX')) === 'OK') return { ok: true };
  return refuse(Number(await redis.pttl(turn('user', a.account))));
}

/**
 * Ends an admitted attempt. A failure is counted against the address and the account (one
 * MULTI) and, once past the free ones, starts the delay before the next attempt (a second MULTI
 * setting the turn keys): the delay runs from the failure, not from the attempt before.
 */
export async function settle(redis: RedisClient, a: Attempt, failed: boolean, p: ThrottlePolicy = DEFAULT_POLICY): Promise<void> {
  if (!failed) {
    await redis.del(busy(a.addr));
    return;
  }
  const [addrN, , userN] = await exec(
    redis.multi().incr(fails('addr', a.addr)).pexpire(fails('addr', a.addr), p.windowMs).incr(fails('user', a.account)).pexpire(fails('user', a.account), p.windowMs),
  );
  const m = redis.multi();
  const byAddr = delayAfter(Number(addrN), p.freePerAddress, p);
  const byUser = delayAfter(Number(userN), p.freePerAccount, p);
  if (byAddr > 0) m.set(turn('addr', a.addr), '1', 'PX', byAddr);
  if (byUser > 0) m.set(turn('user', a.account), '1', 'PX', byUser);
  await exec(m.del(busy(a.addr)));
}
