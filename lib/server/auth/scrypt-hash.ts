// No `import 'server-only'` here, unlike the rest of lib/server: `scripts/hash-password.ts` runs
// under tsx, outside the react-server condition, where that marker package throws on import.
// This file is pure node:crypto (no Redis, no Next.js, no secrets), so nothing is lost by
// letting a CLI load it; the server reaches it through ./password.ts, which is server-only.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashes are `scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>`. The defaults (N=2^15,
 * r=8, p=1) are the OWASP minimum for scrypt: about 32 MiB and 50–100 ms per hash, which is
 * slow for a guesser and fine for one sign-in.
 */
export const DEFAULT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Above this a configured N would let one sign-in take seconds and gigabytes. */
const MAX_N = 2 ** 20;

export interface ScryptHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

const B64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Parses a hash string; returns the reason it is malformed instead of throwing. */
export function parseHash(text: string): ScryptHash | string {
  const parts = text.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return 'expected scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>';
  const [N, r, p] = parts.slice(1, 4).map((s) => (/^\d+$/.test(s) ? Number(s) : NaN));
  if (!N || N < 2 || N > MAX_N || (N & (N - 1)) !== 0) return `N must be a power of two between 2 and ${MAX_N}`;
  if (!r || r > 64) return 'r must be an integer between 1 and 64';
  if (!p || p > 16) return 'p must be an integer between 1 and 16';
  const bytes = (s: string | undefined): Buffer => (s !== undefined && B64.test(s) ? Buffer.from(s, 'base64') : Buffer.alloc(0));
  const salt = bytes(parts[4]);
  const hash = bytes(parts[5]);
  if (salt.length < 8) return 'salt must be base64 of 8 or more bytes';
  if (hash.length < 16) return 'hash must be base64 of 16 or more bytes';
  return { N, r, p, salt, hash };
}

function derive(password: string, salt: Buffer, keylen: number, o: { N: number; r: number; p: number }): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; Node refuses anything above `maxmem` (32 MiB by default), which
  // N=2^15, r=8 just exceeds. The async form runs on the libuv pool, not the event loop.
  const options: ScryptOptions = { N: o.N, r: o.r, p: o.p, maxmem: 256 * o.N * o.r };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/** A new hash of `password` with a random salt. */
export async function hashPassword(password: string, params: { N: number; r: number; p: number } = DEFAULT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Whether `password` matches `stored`; compared in constant time. A malformed hash never matches. */
export async function verifyPassword(password: string, stored: string | ScryptHash): Promise<boolean> {
  const h = typeof stored === 'string' ? parseHash(stored) : stored;
  if (typeof h === 'string') return false;
  const key = await derive(password, h.salt, h.hash.length, h);
  return timingSafeEqual(key, h.hash);
}
