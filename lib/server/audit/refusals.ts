import 'server-only';
import type { AuditRefusalDto } from '@/lib/contract/audit';
import type { Role } from '@/lib/contract/auth';
import { REFUSAL_WINDOWS, refusalFieldsPerWindow } from './budget';
import { cutText } from './bound';
import { getRedis } from '../redis/client';

/**
 * Refused mutation requests, counted per hour, principal and route: one hash per hour,
 * `asynqlens:audit:{refusals}:<hour>` (the `{refusals}` tag puts every hour in one slot, so
 * one MULTI reads them all on Redis Cluster too). A field is `[user, method, route]` as JSON, its
 * value `{ count, first, last, status, code, role }`. A window holds at most
 * refusalFieldsPerWindow() fields; refusals beyond go to its overflow field. Each hash expires
 * 24 hours after its hour began, so at most 24 exist.
 */
const KEY_PREFIX = 'asynqlens:audit:{refusals}:';
const HOUR_MS = 3_600_000;
const OVERFLOW = '*';
const USER_CHARS = 64;

/**
 * One refusal counted, in one round trip: the script does HEXISTS + HLEN (O(1)), HGET + HSET
 * of one field, and EXPIREAT, on one key. Atomic, so the field bound holds under concurrency.
 */
const COUNT = `
local f = ARGV[1]
if redis.call('HEXISTS', KEYS[1], f) == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[2]) - 1 then f = '${OVERFLOW}' end
local v = redis.call('HGET', KEYS[1], f)
local e = v and cjson.decode(v) or { count = 0, first = ARGV[4] }
e.count = e.count + 1
e.last = ARGV[4]
e.status = tonumber(ARGV[5])
e.code = ARGV[6]
e.role = ARGV[7]
if f == '${OVERFLOW}' then e.field = ARGV[1] end
redis.call('HSET', KEYS[1], f, cjson.encode(e))
redis.call('EXPIREAT', KEYS[1], ARGV[3])
return f == '${OVERFLOW}' and 1 or 0
`;

const hourKey = (hourStart: number): string => `${KEY_PREFIX}${new Date(hourStart).toISOString().slice(0, 13)}`;

export interface Refusal {
  user: string;
  role: Role;
  method: string;
  /** The route's pattern (actions.ts), or its path for an unlisted one. */
  route: string;
  status: number;
  code: string | null;
}

/**
 * Counts one refusal in Redis and logs it to stdout (one bounded JSON line `{"audit_refusal":…}`
 * for log shipping). Never throws: a lost count is logged, the answer still goes out.
 */
export async function countRefusal(r: Refusal, now = Date.now()): Promise<void> {
  const hour = now - (now % HOUR_MS);
  const user = cutText(r.user, USER_CHARS) ?? r.user;
  const method = cutText(r.method, 16) ?? r.method;
  const route = cutText(r.route, 200) ?? r.route;
  const field = JSON.stringify([user, method, route]);
  const code = r.code === null ? '' : (cutText(r.code, 64) ?? r.code);
  const at = new Date(now).toISOString();
  process.stdout.write(`${JSON.stringify({ audit_refusal: { at, user, role: r.role, method, route, status: r.status, code: code || null } })}\n`);
  const expireAt = Math.floor((hour + REFUSAL_WINDOWS * HOUR_MS) / 1000);
  try {
    await getRedis().eval(COUNT, 1, hourKey(hour), field, refusalFieldsPerWindow(), expireAt, at, r.status, code, r.role);
  } catch (err) {
    console.error(`[asynqlens] audit refusal not counted in Redis (${err instanceof Error ? err.message : String(err)}): ${field}`);
  }
}

interface Stored {
  count: number;
  first: string;
  last: string;
  status: number;
  code: string;
  role: Role;
  /** On the overflow entry: the field of the last refusal that overflowed. */
  field?: string;
}

const LISTED = 500;

/**
 * The refusals of the last 24 hours, newest window first, then most frequent first, at most
 * 500. One round trip: MULTI of one HGETALL per hour (O(entries), at most 24 × the field bound).
 */
export async function listRefusals(now = Date.now()): Promise<AuditRefusalDto[]> {
  const hour = now - (now % HOUR_MS);
  const hours = Array.from({ length: REFUSAL_WINDOWS }, (_, i) => hour - i * HOUR_MS);
  const multi = getRedis().multi();
  for (const h of hours) multi.hgetall(hourKey(h));
  const replies = (await multi.exec()) ?? [];
  const out: AuditRefusalDto[] = [];
  replies.forEach(([err, hash], i) => {
    if (err) throw err;
    const window = new Date(hours[i]!).toISOString();
    const entries = Object.entries(hash as Record<string, string>).flatMap(([field, value]) => {
      try {
        const v = JSON.parse(value) as Stored;
        const overflow = field === OVERFLOW;
        const [user, method, route] = JSON.parse(overflow ? (v.field ?? '["","",""]') : field) as [string, string, string];
        return [{ window, user, role: v.role, method, route, count: v.count, first: v.first, last: v.last, status: v.status, code: v.code || null, overflow }];
      } catch {
        return [];
      }
    });
    out.push(...entries.sort((a, b) => b.count - a.count));
  });
  return out.slice(0, LISTED);
}
