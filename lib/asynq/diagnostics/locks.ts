/**
 * Lists unique locks with their holders, a bounded slice per call: SCAN never blocks Redis,
 * and each call stops after a few hundred locks or a few tens of milliseconds, handing back
 * the SCAN cursor to continue from.
 */
import type { Redis } from 'ioredis';
import * as k from '../keys';
import { asNumber, asText } from '../reply';
import { lockFindings, type LockFinding, type LockHolder } from './lock-findings';
import { ALL_LOCKS_PATTERN, lockQueue, parseLockKey, queueLockPattern } from './lock-key';
import { readTaskFields } from './msg-fields';

export interface LockInfo {
  queue: string;
  key: string;
  taskType: string;
  /** Hex MD5 of the payload, '' for a nil payload, null when the key is not asynq's shape. */
  payloadMd5: string | null;
  /** Seconds left (ms precision); -1 when the lock never expires. */
  ttlSeconds: number;
  expiresAt: Date | null;
  holderId: string;
  /** The holder's state, null when its task hash is gone. */
  holderState: string | null;
  holder: LockHolder;
  findings: LockFinding[];
}

export interface LockPageOptions {
  /** SCAN cursor from the previous page; '0' or absent to start. */
  cursor?: string;
  /** Stop once this many locks are found (default 200; a page may hold up to COUNT more). */
  limit?: number;
  /** Stop scanning after this much wall time (default 30 ms). */
  budgetMs?: number;
  /** SCAN COUNT (default 1000: about 1 ms of Redis per call beside a million keys). */
  count?: number;
  now?: Date;
}

export interface LockPage {
  locks: LockInfo[];
  /** Where the next page starts; null when the scan is complete. */
  cursor: string | null;
}

/** A holder msg larger than this is not read: a page of locks must not pull gigabytes. */
const MSG_READ_LIMIT = 1024 * 1024;
/** SCAN calls per page at most, whatever the time budget says. */
const MAX_SCAN_CALLS = 100;

/**
 * SCANs `pattern` from `cursor` until the limit, the time budget or the end. One round trip
 * per SCAN call, each O(COUNT). Keys may repeat across pages (SCAN's guarantee); within a page
 * they are unique.
 */
async function scanPage(redis: Redis, pattern: string, opts: LockPageOptions): Promise<{ keys: string[]; cursor: string | null }> {
  const limit = opts.limit ?? 200;
  const budget = opts.budgetMs ?? 30;
  const count = opts.count ?? 1000;
  const started = performance.now();
  const seen = new Set<string>();
  let cursor = opts.cursor ?? '0';
  for (let calls = 0; calls < MAX_SCAN_CALLS; calls++) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', count);
    for (const key of keys) seen.add(key);
    cursor = next;
    if (cursor === '0' || seen.size >= limit || performance.now() - started >= budget) break;
  }
  return { keys: [...seen], cursor: cursor === '0' ? null : cursor };
}

interface Found {
  queue: string;
  key: string;
  holderId: string;
  pttl: number;
}

/** GET + PTTL of every key: one round trip. Locks that expired meanwhile are dropped. */
async function readLocks(redis: Redis, keys: readonly { key: string; queue: string }[]): Promise<Found[]> {
  if (keys.length === 0) return [];
  const p = redis.pipeline();
  for (const { key } of keys) p.get(key).pttl(key);
  const replies = (await p.exec()) ?? [];
  const out: Found[] = [];
  keys.forEach(({ key, queue }, i) => {
    const holderId = asText(replies[2 * i]?.[1]);
    const pttl = asNumber(replies[2 * i + 1]?.[1]);
    if (holderId !== null && pttl !== null && pttl !== -2) out.push({ queue, key, holderId, pttl });
  });
  return out;
}

/**
 * The holders' state, named lock, msg size and retry score: one round trip; then one more,
 * only when some holder's retry counts or msg-only unique key are needed, for those msgs.
 */
async function readHolders(redis: Redis, found: readonly Found[]): Promise<LockHolder[]> {
  const p = redis.pipeline();
  for (const f of found) {
    const tk = k.taskKey(f.queue, f.holderId);
    p.hmget(tk, 'state', 'unique_key').hstrlen(tk, 'msg').zscore(k.retryKey(f.queue), f.holderId);
  }
  const replies = (await p.exec()) ?? [];
  const holders = found.map((f, i): LockHolder & { msgLen: number } => {
    const [state, uniqueKey] = (replies[3 * i]?.[1] ?? [null, null]) as (string | null)[];
    const score = asNumber(replies[3 * i + 2]?.[1]);
    return {
      id: f.holderId,
      state: state ?? null,
      maxRetry: null,
      retried: null,
      nextAttemptAt: state === 'retry' && score !== null ? new Date(score * 1000) : null,
      uniqueKey: uniqueKey ?? null,
      msgLen: asNumber(replies[3 * i + 1]?.[1]) ?? 0,
    };
  });
  const needMsg = holders
    .map((h, i) => ({ h, i }))
    .filter(({ h }) => h.state !== null && h.msgLen > 0 && h.msgLen <= MSG_READ_LIMIT && (h.state === 'retry' || h.uniqueKey === null));
  if (needMsg.length > 0) {
    const q = redis.pipeline();
    for (const { i } of needMsg) q.hgetBuffer(k.taskKey(found[i]!.queue, found[i]!.holderId), 'msg');
    const msgs = (await q.exec()) ?? [];
    needMsg.forEach(({ h }, j) => {
      const bytes = msgs[j]?.[1];
      const fields = Buffer.isBuffer(bytes) ? readTaskFields(bytes) : null;
      if (!fields) return;
      h.maxRetry = fields.retry;
      h.retried = fields.retried;
      h.uniqueKey ??= fields.uniqueKey;
    });
  }
  return holders.map(({ msgLen: _, ...h }) => h);
}

async function describeLocks(redis: Redis, keys: readonly { key: string; queue: string }[], now: Date): Promise<LockInfo[]> {
  const found = await readLocks(redis, keys);
  if (found.length === 0) return [];
  const holders = await readHolders(redis, found);
  return found.map((f, i) => {
    const holder = holders[i]!;
    const parsed = parseLockKey(f.queue, f.key) ?? { taskType: '', payloadMd5: null };
    return {
      queue: f.queue,
      key: f.key,
      taskType: parsed.taskType,
      payloadMd5: parsed.payloadMd5,
      ttlSeconds: f.pttl === -1 ? -1 : f.pttl / 1000,
      expiresAt: f.pttl === -1 ? null : new Date(now.getTime() + f.pttl),
      holderId: f.holderId,
      holderState: holder.state,
      holder,
      findings: lockFindings({ key: f.key, pttlMs: f.pttl, holder, now }),
    };
  });
}

/**
 * One page of the locks of queue `qname` (`asynq:{<q>}:unique:*`), with each holder's state
 * and the findings. Round trips: one per SCAN call (at most 100, usually a handful), then two
 * or three pipelines for the page's locks (GET+PTTL; HMGET+HSTRLEN+ZSCORE; HGET msg of retry
 * holders). Every command is O(1) or O(log N) except SCAN's O(COUNT). Works on a queue that
 * is no longer in asynq:queues (asynq leaves the locks of a removed queue behind).
 */
export async function listQueueLocks(redis: Redis, qname: string, opts: LockPageOptions = {}): Promise<LockPage> {
  const { keys, cursor } = await scanPage(redis, queueLockPattern(qname), opts);
  const locks = await describeLocks(redis, keys.map((key) => ({ key, queue: qname })), opts.now ?? new Date());
  return { locks, cursor };
}

/**
 * One page of the locks of every queue, including queues removed since (their names come
 * from the keys). Same costs as {@link listQueueLocks} plus one SMEMBERS asynq:queues.
 */
export async function listAllLocks(redis: Redis, opts: LockPageOptions = {}): Promise<LockPage> {
  const { keys, cursor } = await scanPage(redis, ALL_LOCKS_PATTERN, opts);
  if (keys.length === 0) return { locks: [], cursor };
  const queues = await redis.smembers(k.ALL_QUEUES);
  const located = keys.flatMap((key) => {
    const queue = lockQueue(key, queues);
    return queue === null ? [] : [{ key, queue }];
  });
  return { locks: await describeLocks(redis, located, opts.now ?? new Date()), cursor };
}
