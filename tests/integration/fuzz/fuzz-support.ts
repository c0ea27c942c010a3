/**
 * Pieces of the route fuzzer: a seeded PRNG, generators of hostile input (JSON values, strings,
 * path segments, query strings) and a digest of a whole Redis database.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Redis } from 'ioredis';
import { snapshot } from '../../support/redis-snapshot';

/** mulberry32: small, fast and enough to replay a failure from its seed. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
export type Rng = ReturnType<typeof prng>;

/** Field names the routes know, so random bodies and queries reach past the first check. */
export const KNOWN_KEYS = [
  'type', 'payload', 'payloadEncoding', 'options', 'taskId', 'uniqueTtlSeconds', 'maxRetry', 'timeoutSeconds',
  'deadline', 'processAt', 'processInSeconds', 'retentionSeconds', 'group', 'headers', 'items', 'queue', 'action',
  'state', 'states', 'ids', 'filter', 'preview', 'all', 'taskIds', 'patterns', 'taskTypes', 'taskType', 'unique',
  'username', 'password', 'cursor', 'size', 'page', 'key', 'holder', 'force', 'days', 'wait', 'limit', 'samples',
  'typePrefix', 'id', 'error', 'minRetried', 'lastFailedAfter', 'nextRunBefore', 'completedAfter', 'payload.user.id',
  'header.tenant', 'payload.', 'header.', '__proto__', 'constructor', 'toString',
] as const;

const WORDS = [
  '', ' ', 'default', 'critical', 'pending', 'active', 'scheduled', 'retry', 'archived', 'completed', 'aggregating',
  'run', 'archive', 'delete', 'cancel', 'true', 'false', '1', '0', '-1', '42', '1e9', '1e400', 'NaN', 'null',
  '2026-11-30T03:10:16Z', '2026-13-45', 'utf8', 'base64', 'email:send', 'a*', '*', '{', '}', '{q}', 'q}:t:X',
  'default}:t:X', '\n', '\r\n', '\t', '\u0000', '\u202e', '\ud800', '\udfff', '\uffff', '😀', 'é', '%', '%FF', '..',
  '/', '\\', '"', "'", '<script>', '00000000-0000-0000-0000-000000000000', '18446744073709551616', '9'.repeat(40),
  'eyJ2IjoxfQ', 'AAAA', '====',
] as const;

/** A hostile string: known words, random code units (lone surrogates included), or very long. */
export function randomString(r: Rng): string {
  const k = r.int(10);
  if (k < 4) return r.pick(WORDS);
  if (k < 7) {
    const n = r.int(24);
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(r.chance(0.7) ? 32 + r.int(95) : r.int(0x10000));
    return s;
  }
  if (k < 9) return r.pick(WORDS) + r.pick(WORDS) + String(r.int(1000));
  // Long: past field limits, sometimes past a body limit.
  return r.pick(['x', 'é', '\ud800', '{', '9']).repeat(r.pick([300, 5000, 70_000]));
}

const NUMBERS = [0, -0, 1, -1, 0.5, 42, 2 ** 31, 2 ** 53, -(2 ** 53), 1e21, 1e308, -1e308, 5e-324, 25, 100, 10_000, 100_001];

/** A random JSON value; objects favour the routes' own field names. */
export function randomJson(r: Rng, depth = 0): unknown {
  const k = r.int(depth > 3 ? 5 : 9);
  if (k === 0) return null;
  if (k === 1) return r.chance(0.5);
  if (k === 2) return r.pick(NUMBERS);
  if (k === 3 || k === 4) return randomString(r);
  if (k < 7) {
    const n = r.chance(0.1) ? r.int(3000) : r.int(5);
    return Array.from({ length: n }, () => (n > 50 ? randomString(r) : randomJson(r, depth + 1)));
  }
  const out: Record<string, unknown> = {};
  const n = r.int(6);
  for (let i = 0; i < n; i++) out[r.chance(0.8) ? r.pick(KNOWN_KEYS) : randomString(r)] = randomJson(r, depth + 1);
  return out;
}

/** `value` with one random part replaced, removed or added: near-valid input goes deepest. */
export function mutate(r: Rng, value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || r.chance(depth === 0 ? 0.1 : 0.3)) return randomJson(r, depth);
  if (Array.isArray(value)) {
    const copy = [...value];
    const roll = r.next();
    if (copy.length === 0 || roll < 0.2) copy.push(randomJson(r, depth + 1));
    else if (roll < 0.36) copy.splice(r.int(copy.length), 1);
    else {
      const i = r.int(copy.length);
      copy[i] = mutate(r, copy[i], depth + 1);
    }
    return copy;
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const keys = Object.keys(copy);
  const roll = r.next();
  if (keys.length === 0 || roll < 0.15) copy[r.pick(KNOWN_KEYS)] = randomJson(r, depth + 1);
  else if (roll < 0.28) delete copy[r.pick(keys)];
  else {
    const key = r.pick(keys);
    copy[key] = mutate(r, copy[key], depth + 1);
  }
  return copy;
}

/** A raw (still percent-encoded) path segment: mostly well encoded, sometimes not decodable. */
export function randomSegment(r: Rng, good: readonly string[]): string {
  const k = r.int(10);
  if (k < 5) return encodeURIComponent(r.pick(good));
  if (k < 6) return r.pick(['%FF', '%E0%A4', '%ED%A0%80', '%', '%%', '%zz', 'a%FFb', '%C0%AF', '%F4%90%80%80']);
  let s = randomString(r);
  // A lone surrogate cannot be percent-encoded; Next would never hand one over, so it is
  // sent through the params directly below (the route must refuse it either way).
  if (/\p{Surrogate}/u.test(s)) s = s.replace(/\p{Surrogate}/gu, '\ufffd');
  return encodeURIComponent(s);
}

/** A random query string (without `?`), with repeated keys and odd encodings. */
export function randomQuery(r: Rng, known: readonly string[]): string {
  const parts: string[] = [];
  const n = r.int(5);
  for (let i = 0; i < n; i++) {
    const key = r.chance(0.8) ? r.pick(known.length && r.chance(0.7) ? known : KNOWN_KEYS) : randomString(r);
    const value = r.chance(0.15) ? r.pick(['%FF', '%', '%ED%A0%80', '%zz']) : encodeURIComponent(randomString(r).replace(/\p{Surrogate}/gu, '\ufffd'));
    parts.push(`${encodeURIComponent(key.replace(/\p{Surrogate}/gu, '\ufffd'))}=${value}`);
  }
  return parts.join('&');
}

export interface RouteModule {
  /** The file's folder under app/api, e.g. `queues/[qname]/tasks`. */
  dir: string;
  file: string;
  /** Its dynamic segments, in path order. */
  params: string[];
}

/** Every route.ts under app/api, read from the file tree. */
export function routeModules(root: string): RouteModule[] {
  const out: RouteModule[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name === 'route.ts') {
        const rel = relative(root, dir);
        out.push({ dir: rel, file: path, params: [...rel.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]!) });
      }
    }
  };
  walk(root);
  return out;
}

/**
 * Every key with a hash of its type and value (TTL aside): the state of the whole database.
 * By content, not DUMP: a read may change how Redis encodes a value (SORT turns a small
 * sorted set from a listpack into a skiplist) without changing the value.
 */
export async function digest(redis: Redis): Promise<Record<string, string>> {
  const all = await snapshot(redis);
  return Object.fromEntries(Object.entries(all).map(([key, v]) => [key, createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 16)]));
}
