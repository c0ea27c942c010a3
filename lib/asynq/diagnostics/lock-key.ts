/**
 * Names of unique locks: the SCAN patterns that find them and the parser that splits a lock
 * key back into queue, task type and payload checksum.
 */
import { queueKeyPrefix, uniqueKeyPrefix } from '../keys';

/**
 * Escapes Redis glob metacharacters (`* ? [ ] \`), so a queue named `a*` matches only its own
 * keys: `SCAN MATCH asynq:{a*}:unique:*` would otherwise also walk queue `ab`'s locks.
 */
export function escapeGlob(s: string): string {
  return s.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/** SCAN MATCH pattern for every lock of one queue. */
export const queueLockPattern = (qname: string): string => `${escapeGlob(uniqueKeyPrefix(qname))}*`;

/** SCAN MATCH pattern for every lock of every queue (and of queues since removed). */
export const ALL_LOCKS_PATTERN = 'asynq:{*}:unique:*';

export interface ParsedLockKey {
  queue: string;
  taskType: string;
  /** Lower-case hex MD5 of the payload, `''` for a nil payload, null when the key is not asynq's shape. */
  payloadMd5: string | null;
}

/**
 * Splits `asynq:{<q>}:unique:<type>:<md5>` given its queue. The type may itself contain `:`,
 * so the checksum is the last segment; anything there other than 32 hex digits or nothing
 * (Go's nil payload) means the key was not written by asynq, and the whole rest is the type.
 */
export function parseLockKey(qname: string, key: string): ParsedLockKey | null {
  const prefix = uniqueKeyPrefix(qname);
  if (!key.startsWith(prefix)) return null;
  const rest = key.slice(prefix.length);
  const cut = rest.lastIndexOf(':');
  const md5 = cut < 0 ? null : rest.slice(cut + 1);
  if (md5 === null || !(md5 === '' || /^[0-9a-f]{32}$/.test(md5))) {
    return { queue: qname, taskType: rest, payloadMd5: null };
  }
  return { queue: qname, taskType: rest.slice(0, cut), payloadMd5: md5 };
}

/**
 * True when a key under `qname`'s lock prefix might be a key of a longer queue name, e.g.
 * `asynq:{nest}:unique:zz}:unique:t:…` (a lock) or `asynq:{nest}:unique:zz}:paused` of queue
 * `nest}:unique:zz`: only then does the owner depend on which queues exist.
 */
export function lockOwnerAmbiguous(qname: string, key: string): boolean {
  return key.indexOf('}:', uniqueKeyPrefix(qname).length) >= 0;
}

/**
 * The queue a lock key belongs to, null when the key is no lock. This is the one ownership
 * rule: the all-queues listing and every per-queue lock route decide with it. A key belongs to
 * the longest known queue whose key prefix `asynq:{<q>}:` it has (names may nest: `nest` and
 * `nest}:unique:zz`), and is a lock when the rest starts with `unique:` — so the paused flag or
 * a counter of `nest}:unique:zz` is never taken for a lock of `nest`. With no known queue, the
 * text up to the first `}:unique:`: a lock left behind by a removed queue, which asynq never
 * cleans up.
 */
export function lockQueue(key: string, knownQueues: readonly string[]): string | null {
  let best: string | null = null;
  for (const q of knownQueues) {
    if (key.startsWith(queueKeyPrefix(q)) && (best === null || q.length > best.length)) best = q;
  }
  if (best !== null) return key.startsWith(uniqueKeyPrefix(best)) ? best : null;
  const end = key.indexOf('}:unique:');
  return key.startsWith('asynq:{') && end > 0 ? key.slice('asynq:{'.length, end) : null;
}
