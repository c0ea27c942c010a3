import 'server-only';

/**
 * Failed sign-ins per (user name, client), in memory: after MAX_FAILURES within WINDOW_MS the
 * pair is refused for LOCK_MS. Per pair rather than per name, so a stranger cannot lock a real
 * user out from elsewhere; scrypt's cost already limits how fast any one client can guess.
 * Bounded to MAX_KEYS entries (the oldest go first) so a flood of names cannot grow memory.
 */
export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 5 * 60_000;
const MAX_KEYS = 10_000;

interface Entry {
  failures: number;
  firstAt: number;
  lockedUntil: number;
}

const g = globalThis as unknown as { asynqlensLoginFailures?: Map<string, Entry> };
const failures: Map<string, Entry> = (g.asynqlensLoginFailures ??= new Map<string, Entry>());

/** The client as the proxy reports it (first x-forwarded-for hop, x-real-ip), else 'direct'. */
export function clientOf(req: Request): string {
  return req.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || req.headers.get('x-real-ip')?.trim() || 'direct';
}

export const throttleKey = (name: string, client: string): string => `${name.toLowerCase()}\n${client}`;

/** Seconds until `key` may try again, or 0. */
export function lockedFor(key: string, now = Date.now()): number {
  const e = failures.get(key);
  return e && e.lockedUntil > now ? Math.ceil((e.lockedUntil - now) / 1000) : 0;
}

export function recordFailure(key: string, now = Date.now()): void {
  let e = failures.get(key);
  if (!e || now - e.firstAt > WINDOW_MS) e = { failures: 0, firstAt: now, lockedUntil: 0 };
  e.failures++;
  if (e.failures >= MAX_FAILURES) e.lockedUntil = now + LOCK_MS;
  failures.delete(key);
  failures.set(key, e);
  if (failures.size > MAX_KEYS) failures.delete(failures.keys().next().value as string);
}

export function clearFailures(key: string): void {
  failures.delete(key);
}
