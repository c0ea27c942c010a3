/**
 * Lists unique locks with their holders, a bounded slice per call: SCAN never blocks Redis,
 * and each call stops after a few hundred locks or a few tens of milliseconds, handing back
 * the SCAN cursor to continue from.
 */
import type { Redis } from 'ioredis';
import { assertQueueSlot, isCluster, keySlot, masterNodes, nodeForSlot, queueSlot } from '../topology';
import type { RedisClient } from '../redis-client';
import { AsynqError, invalidArgument } from '../errors';
import * as k from '../keys';
import { asArray, asNumber, asText } from '../reply';
import { lockFindings, type LockFinding, type LockHolder } from './lock-findings';
import { ALL_LOCKS_PATTERN, lockOwnerAmbiguous, lockQueue, parseLockKey, queueLockPattern } from './lock-key';
import { readTaskMsg } from '../task-msg-view';
import { execPipeline } from '../scripts';
import { createCallSizer, usSince } from '../call-sizer';

/** One unique lock as the listing saw it: its key's parts, its TTL, its holder and the findings. */
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
  /**
   * SCAN COUNT at most (default 1000: about 1 ms of Redis per call beside a million keys); each
   * call's COUNT is set by the call sizer from the last call's duration.
   */
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

/** The first SCAN's COUNT of a page, before any call is measured, and the least. */
const FIRST_COUNT = 250;
const MIN_COUNT = 50;

/**
 * SCANs `pattern` from `cursor` until the limit, the time budget or the end. One round trip
 * per SCAN call, each O(COUNT), the COUNT sized by the call sizer from the last call's duration
 * (SCAN reports no time of its own; the duration includes the round trip, so it never
 * under-estimates). Keys may repeat across pages (SCAN's guarantee); within a page they are
 * unique.
 */
async function scanPage(node: Redis, pattern: string, opts: LockPageOptions, seen = new Set<string>(), started = performance.now()): Promise<{ keys: string[]; cursor: string | null }> {
  const limit = opts.limit ?? 200;
  const budget = opts.budgetMs ?? 30;
  const max = Math.max(1, opts.count ?? 1000);
  const sizer = createCallSizer({ first: Math.min(FIRST_COUNT, max), min: Math.min(MIN_COUNT, max), max });
  let cursor = opts.cursor ?? '0';
  for (let calls = 0; calls < MAX_SCAN_CALLS; calls++) {
    const count = sizer.size;
    const t0 = performance.now();
    const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', count);
    sizer.observe(count, usSince(t0));
    for (const key of keys) seen.add(key);
    cursor = next;
    if (cursor === '0' || seen.size >= limit || performance.now() - started >= budget) break;
  }
  return { keys: [...seen], cursor: cursor === '0' ? null : cursor };
}

/**
 * SCAN reaches one node only, so a cluster-wide listing scans the masters one after the other.
 * The page cursor stays a string of digits (the API's rule for cursors): the number of digits
 * of the master's index, the index, then that master's SCAN cursor. Masters are ordered by
 * address; if the cluster's masters change between two pages, the listing may skip or repeat
 * keys, which SCAN allows anyway.
 */
function encodeNodeCursor(index: number, cursor: string): string {
  return `${String(index).length}${index}${cursor}`;
}

function decodeNodeCursor(cursor: string | undefined): { index: number; cursor: string } {
  if (cursor === undefined || cursor === '0') return { index: 0, cursor: '0' };
  const width = Number(cursor[0]);
  const index = Number(cursor.slice(1, 1 + width));
  const rest = cursor.slice(1 + width);
  if (!/^\d+$/.test(cursor) || width < 1 || !Number.isInteger(index) || rest === '') {
    throw invalidArgument('listLocks', 'cursor', 'cursor must be the cursor returned by the previous page');
  }
  return { index, cursor: rest };
}

/** {@link scanPage} over every master of a cluster, in turn, under one limit and time budget. */
async function scanMasters(redis: RedisClient, pattern: string, opts: LockPageOptions): Promise<{ keys: string[]; cursor: string | null }> {
  if (!isCluster(redis)) return scanPage(redis, pattern, opts);
  const nodes = await masterNodes(redis);
  const seen = new Set<string>();
  const started = performance.now();
  let { index, cursor } = decodeNodeCursor(opts.cursor);
  while (index < nodes.length) {
    const page = await scanPage(nodes[index]!, pattern, { ...opts, cursor }, seen, started);
    if (page.cursor !== null) return { keys: page.keys, cursor: encodeNodeCursor(index, page.cursor) };
    index += 1;
    cursor = '0';
    if (seen.size >= (opts.limit ?? 200) || performance.now() - started >= (opts.budgetMs ?? 30)) break;
  }
  return { keys: [...seen], cursor: index < nodes.length ? encodeNodeCursor(index, '0') : null };
}

interface Found {
  queue: string;
  key: string;
  holderId: string;
  pttl: number;
}

/** Keys per MGET: one command per 500 locks rather than a GET per lock. */
const MGET_CHUNK = 500;

/**
 * Runs of at most MGET_CHUNK consecutive keys of one queue: an MGET never spans queues, so it
 * never spans Redis Cluster slots either (each queue's keys share its `{q}` hash tag).
 */
function mgetChunks(keys: readonly { key: string; queue: string }[], bySlot: boolean): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  // On a cluster a queue named with a leading `}` has keys in many slots: split those by slot too.
  const split = (i: number) => keys[i]!.queue !== keys[start]!.queue || (bySlot && keySlot(keys[i]!.key) !== keySlot(keys[start]!.key));
  for (let i = 1; i <= keys.length; i++) {
    if (i === keys.length || i - start === MGET_CHUNK || split(i)) {
      out.push([start, i]);
      start = i;
    }
  }
  return out;
}

/** The holders (MGET) and PTTL of every key: one round trip. Locks that expired meanwhile are dropped. */
async function readLocks(redis: RedisClient, keys: readonly { key: string; queue: string }[]): Promise<Found[]> {
  if (keys.length === 0) return [];
  const chunks = mgetChunks(keys, isCluster(redis));
  const replies = await execPipeline(redis, (p) => {
    for (const [from, to] of chunks) p.mget(...keys.slice(from, to).map((x) => x.key));
    for (const { key } of keys) p.pttl(key);
  });
  const holders = replies.slice(0, chunks.length).flatMap(([err, v]) => {
    if (err) throw err;
    return asArray(v, 'MGET');
  });
  const out: Found[] = [];
  keys.forEach(({ key, queue }, i) => {
    const holderId = asText(holders[i]);
    const pttl = asNumber(replies[chunks.length + i]?.[1]);
    if (holderId !== null && pttl !== null && pttl !== -2) out.push({ queue, key, holderId, pttl });
  });
  return out;
}

/** True when judging the holder needs its msg: retry counts, or a unique key only the msg names. */
const needsMsg = (h: LockHolder): boolean =>
  h.state === 'retry' || (h.state !== null && h.state !== 'completed' && h.uniqueKey === null);

/**
 * The holders' state and named lock: one round trip (HMGET per holder). Holders that need
 * more (see needsMsg; usually few) cost two more: HSTRLEN msg + ZSCORE retry, then HGET msg
 * of those whose msg is not too large to read.
 */
async function readHolders(redis: RedisClient, found: readonly Found[]): Promise<LockHolder[]> {
  const replies = await execPipeline(redis, (p) => {
    for (const f of found) p.hmget(k.taskKey(f.queue, f.holderId), 'state', 'unique_key');
  });
  const holders = found.map((f, i): LockHolder => {
    const [state, uniqueKey] = (replies[i]?.[1] ?? [null, null]) as (string | null)[];
    return { id: f.holderId, state: state ?? null, maxRetry: null, retried: null, nextAttemptAt: null, uniqueKey: uniqueKey ?? null };
  });
  const more = holders.flatMap((h, i) => (needsMsg(h) ? [{ h, f: found[i]! }] : []));
  if (more.length === 0) return holders;
  const sizes = await execPipeline(redis, (q) => {
    for (const { f } of more) q.hstrlen(k.taskKey(f.queue, f.holderId), 'msg').zscore(k.retryKey(f.queue), f.holderId);
  });
  const readable = more.filter(({ h }, j) => {
    const score = asNumber(sizes[2 * j + 1]?.[1]);
    if (h.state === 'retry' && score !== null) h.nextAttemptAt = new Date(score * 1000);
    const len = asNumber(sizes[2 * j]?.[1]) ?? 0;
    return len > 0 && len <= MSG_READ_LIMIT;
  });
  if (readable.length === 0) return holders;
  const msgs = await execPipeline(redis, (r) => {
    for (const { f } of readable) r.hgetBuffer(k.taskKey(f.queue, f.holderId), 'msg');
  });
  readable.forEach(({ h }, j) => {
    const bytes = msgs[j]?.[1];
    const fields = Buffer.isBuffer(bytes) ? readTaskMsg(bytes) : null;
    if (!fields) return;
    h.maxRetry = fields.retry;
    h.retried = fields.retried;
    h.uniqueKey ??= fields.uniqueKeyText;
  });
  return holders;
}

async function describeLocks(redis: RedisClient, keys: readonly { key: string; queue: string }[], now: Date): Promise<LockInfo[]> {
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
 * The owner of each of `keys` (all under `qname`'s lock prefix) by {@link lockQueue}, the rule
 * of the all-queues listing: the SCAN for `asynq:{nest}:unique:*` also finds the locks of a
 * queue named `nest}:unique:zz`, which are not `nest`'s to list or release. One SMEMBERS
 * asynq:queues (O(queues)) only when some key is ambiguous; none otherwise.
 */
export async function lockOwners(redis: RedisClient, qname: string, keys: readonly string[]): Promise<(string | null)[]> {
  if (!keys.some((key) => lockOwnerAmbiguous(qname, key))) return keys.map(() => qname);
  const queues = await redis.smembers(k.ALL_QUEUES);
  return keys.map((key) => lockQueue(key, queues));
}

/** invalid_argument for a key the ownership rule does not give to `qname` as a lock. */
export function notThisQueuesLock(op: string, qname: string, key: string, owner: string | null): AsynqError {
  const what = owner === null ? 'key is no lock: it is a key of another queue' : `key is a lock of queue ${JSON.stringify(owner)}`;
  return invalidArgument(
    op,
    'key',
    `${what}, not of queue ${JSON.stringify(qname)}: a key belongs to the longest existing queue whose prefix ` +
      'asynq:{<queue>}: it starts with, and is a lock when the rest starts with unique:, as in /api/locks',
  );
}

/**
 * One page of the locks of queue `qname` (`asynq:{<q>}:unique:*`), with each holder's state
 * and the findings. Round trips: one per SCAN call (at most 100, usually a handful), then two
 * pipelines for the page's locks (MGET+PTTL; HMGET), plus two for retry holders and holders
 * whose hash names no lock (HSTRLEN+ZSCORE; HGET msg). Every command is O(1) or O(log N)
 * except SCAN's O(COUNT) and MGET's O(keys): two commands per healthy lock plus one MGET per 500. Works on a queue that
 * is no longer in asynq:queues (asynq leaves the locks of a removed queue behind).
 */
export async function listQueueLocks(redis: RedisClient, qname: string, opts: LockPageOptions = {}): Promise<LockPage> {
  assertQueueSlot(redis, 'listLocks', qname);
  // Every lock of a queue shares its hash slot, so on a cluster only that slot's master holds them.
  const node = await nodeForSlot(redis, queueSlot(qname));
  if (node === null) throw new AsynqError('UNAVAILABLE', 'redis_unavailable', `no Redis Cluster master serves the slot of queue ${JSON.stringify(qname)}`, 'listLocks');
  const { keys: scanned, cursor } = await scanPage(node, queueLockPattern(qname), opts);
  const owners = await lockOwners(redis, qname, scanned);
  const keys = scanned.filter((_, i) => owners[i] === qname);
  const locks = await describeLocks(redis, keys.map((key) => ({ key, queue: qname })), opts.now ?? new Date());
  return { locks, cursor };
}

/**
 * One lock of queue `qname` by key, judged like a listed one (a task's lock badge links to
 * it); null when the key does not exist. Throws invalid_argument for a key outside the queue's
 * lock prefix or one the ownership rule gives to another queue ({@link lockOwners}). Two or
 * four round trips, as for a page of one (one more for an ambiguous key).
 */
export async function getQueueLock(redis: RedisClient, qname: string, key: string, now = new Date()): Promise<LockInfo | null> {
  assertQueueSlot(redis, 'getLock', qname);
  if (parseLockKey(qname, key) === null) {
    throw invalidArgument('getLock', 'key', `key must be a lock of queue ${JSON.stringify(qname)}: it must start with ${JSON.stringify(k.uniqueKeyPrefix(qname))}`);
  }
  const [owner] = await lockOwners(redis, qname, [key]);
  if (owner !== qname) throw notThisQueuesLock('getLock', qname, key, owner ?? null);
  const [lock] = await describeLocks(redis, [{ key, queue: qname }], now);
  return lock ?? null;
}

/**
 * One page of the locks of every queue, including queues removed since (their names come
 * from the keys). Same costs as {@link listQueueLocks} plus one SMEMBERS asynq:queues.
 */
export async function listAllLocks(redis: RedisClient, opts: LockPageOptions = {}): Promise<LockPage> {
  const { keys, cursor } = await scanMasters(redis, ALL_LOCKS_PATTERN, opts);
  if (keys.length === 0) return { locks: [], cursor };
  const queues = await redis.smembers(k.ALL_QUEUES);
  const located = keys
    .flatMap((key) => {
      const queue = lockQueue(key, queues);
      return queue === null ? [] : [{ key, queue }];
    })
    .sort((a, b) => (a.queue < b.queue ? -1 : a.queue > b.queue ? 1 : 0));
  return { locks: await describeLocks(redis, located, opts.now ?? new Date()), cursor };
}
