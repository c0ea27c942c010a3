/**
 * Queue listing and statistics.
 */
import type { Cluster } from 'ioredis';
import { assertQueueSlot, isCluster, queueSlot, queueSlotProblem } from '../topology';
import type { RedisClient } from '../redis-client';
import { explainRedirect, isUnreachable } from '../unavailable';
import { failedPrecondition, invalidArgument, queueNotFound, type AsynqError } from '../errors';
import * as k from '../keys';
import { asArray, asNumber, asText } from '../reply';
import { execPipeline, pipeScript, runScript } from '../scripts';
import type { DailyStats, QueueStats, UnreadableKey } from '../types';
import { CALL_BUDGET_US } from '../call-sizer';
import { MIN_CHUNK, readInChunks, type ChunkCall } from './queue-stats-chunks';

/** Groups summed exactly before the aggregating count turns into a sample estimate. */
const EXACT_GROUP_LIMIT = 32;
const DAY_MS = 86_400_000;

/**
 * Names per SSCAN call (a hint Redis follows closely on a large set): about 0.75 ms of Redis
 * time each (0.15 ms a thousand), under the 1 ms a call aims at. A set this small or smaller
 * comes back whole in one call, as SMEMBERS would. Each call waits for the last (the cursor),
 * so fewer, fuller calls are fewer round trips before the stats can start: 5 at 25,000 queues.
 */
const SSCAN_COUNT = 5_000;

/**
 * Every queue name in `asynq:queues`, sorted. SSCAN in calls of SSCAN_COUNT, one round trip
 * each: one for up to about 5,000 queues, 5-6 for 25,000 — never one SMEMBERS of every
 * name, which takes Redis 3-4 ms (15 ms on a busy machine) at 25,000 names, in one call.
 * SSCAN may repeat a name while Redis resizes the set: they are deduplicated.
 */
export async function listQueueNames(redis: RedisClient): Promise<string[]> {
  const seen = new Set<string>();
  let cursor = '0';
  try {
    do {
      const [next, batch] = await redis.sscanBuffer(k.ALL_QUEUES, cursor, 'COUNT', SSCAN_COUNT);
      cursor = next.toString();
      for (const b of batch) seen.add(b.toString('utf8'));
    } while (cursor !== '0');
  } catch (err) {
    throw explainRedirect(err);
  }
  return [...seen].sort();
}

/**
 * Throws queue_not_found (`notFound`'s, asynq's internal text by default) unless `qname` is in
 * `asynq:queues`. One round trip (SISMEMBER).
 */
export async function assertQueueExists(
  redis: RedisClient,
  op: string,
  qname: string,
  notFound: (op: string, qname: string) => AsynqError = queueNotFound,
): Promise<void> {
  assertQueueSlot(redis, op, qname);
  if ((await redis.sismember(k.ALL_QUEUES, qname)) !== 1) throw notFound(op, qname);
}

function statsKeys(qname: string, now: Date): string[] {
  return [
    k.pendingKey(qname),
    k.activeKey(qname),
    k.scheduledKey(qname),
    k.retryKey(qname),
    k.archivedKey(qname),
    k.completedKey(qname),
    k.processedKey(qname, now),
    k.failedKey(qname, now),
    k.processedTotalKey(qname),
    k.failedTotalKey(qname),
    k.pausedKey(qname),
    k.allGroups(qname),
  ];
}

/**
 * The stats script's ARGV: the group limit, then the suffix of each key of statsKeys after the
 * queue's key prefix, and of the task- and group-key prefixes (cut from keys.ts, so the key
 * names still come from there), then the time after which a call stops early and the queues
 * it reads whatever the time (MIN_CHUNK: up to 40 queues are always one call). The same for every queue: each queue then costs the call one
 * argument, its key prefix ({@link statsScriptKeys}), not fourteen.
 */
export function statsArgs(now: Date, budgetUs = CALL_BUDGET_US, alwaysRead = MIN_CHUNK): string[] {
  const q = 'q';
  const cut = k.queueKeyPrefix(q).length;
  return [
    String(EXACT_GROUP_LIMIT),
    ...[...statsKeys(q, now), k.taskKeyPrefix(q), k.groupKeyPrefix(q)].map((key) => key.slice(cut)),
    String(budgetUs),
    String(alwaysRead),
  ];
}

/** The stats script's KEYS: one per queue, its key prefix (which carries its hash slot). */
export const statsScriptKeys = (qnames: readonly string[]): string[] => qnames.map(k.queueKeyPrefix);

/** A counter asynq writes with INCR: absent (0) or a decimal integer. */
function counter(r: unknown): number | 'bad' {
  const t = asText(r);
  if (t === null) return 0;
  return /^-?\d+$/.test(t) ? Number(t) : 'bad';
}

/** Where the counters sit in a stats row, which is also where their keys sit in statsKeys. */
const COUNTERS = [6, 7, 8, 9] as const;

/**
 * Milliseconds from asynq's pending_since (Unix nanoseconds, a decimal string past 2^53) to
 * `nowMs`, cut toward zero as asynq's time.Since(...).Milliseconds() is. Without BigInt (this
 * runs once per queue of every listing, 25,000 times at 25,000 queues): the whole milliseconds
 * are the digits before the last six (13 digits at most: an exact Number), and cutting the
 * nanosecond difference toward zero takes one more off when the time is past and those last
 * six digits are not all zero. Longer strings (nonsense, but stored by someone) go through
 * BigInt as before.
 */
function latencySince(pendingSince: string, nowMs: number): number {
  if (pendingSince.length > 19) return Number((BigInt(nowMs) * 1_000_000n - BigInt(pendingSince)) / 1_000_000n);
  const cut = pendingSince.length > 6 ? pendingSince.length - 6 : 0;
  const d = nowMs - (cut > 0 ? Number(pendingSince.slice(0, cut)) : 0);
  return d > 0 && Number(pendingSince.slice(cut)) > 0 ? d - 1 : d;
}

/** Row value `i` as a count: 0 when absent. */
const count = (row: unknown[], i: number): number => asNumber(row[i]) ?? 0;

/** Counter `i` of a row: readStatsRow has refused one that is not an integer ('bad'); an empty row reads 0. */
function counterAt(row: unknown[], i: number): number {
  const c = counter(row[i]);
  return c === 'bad' ? 0 : c;
}

function toQueueStats(qname: string, row: unknown[], now: Date): QueueStats {
  // Field by field, no arrays or closures made per queue: this runs for every queue listed.
  const pending = count(row, 0);
  const active = count(row, 1);
  const scheduled = count(row, 2);
  const retry = count(row, 3);
  const archived = count(row, 4);
  const completed = count(row, 5);
  const aggregating = count(row, 12);
  // asynq pauses with SET paused <Unix seconds> and tests only that the key exists.
  const pausedText = asText(row[10]);
  const pausedAt = pausedText !== null && /^\d+$/.test(pausedText) ? Number(pausedText) : null;
  const pendingSince = asText(row[14]);
  const latencyMs = pendingSince !== null && /^\d+$/.test(pendingSince) && pendingSince !== '0' ? latencySince(pendingSince, now.getTime()) : 0;
  return {
    queue: qname,
    paused: pausedText !== null,
    pausedSince: pausedAt !== null && pausedAt > 0 ? new Date(pausedAt * 1000) : null,
    size: pending + active + scheduled + retry + archived + completed + aggregating,
    pending,
    active,
    scheduled,
    retry,
    archived,
    completed,
    aggregating,
    aggregatingExact: count(row, 13) === 1,
    groups: count(row, 11),
    processed: counterAt(row, 6),
    failed: counterAt(row, 7),
    processedTotal: counterAt(row, 8),
    failedTotal: counterAt(row, 9),
    latencyMs,
    memoryUsageBytes: null,
    timestamp: now,
    problem: null,
    unreadable: null,
  };
}

/** The row of a queue that cannot be read, carrying the reason instead of counts. */
function problemRow(qname: string, problem: string, now: Date, unreadable: UnreadableKey | null = null): QueueStats {
  return { ...toQueueStats(qname, [], now), problem, unreadable };
}

function unreadableRow(qname: string, bad: UnreadableKey, now: Date): QueueStats {
  return problemRow(qname, `${bad.key} holds ${bad.found} where asynq writes ${bad.expected}`, now, bad);
}

/**
 * One queue's reply of the stats script → its stats, or the row of an unreadable queue: a key
 * of the wrong type (the script names it) or a counter that is not an integer. Either fails
 * that queue alone.
 */
function readStatsRow(qname: string, reply: unknown, now: Date): QueueStats {
  const row = asArray(reply, 'queueStats row');
  if (asText(row[0]) === 'unreadable') {
    return unreadableRow(qname, { key: asText(row[1]) ?? '', expected: asText(row[2]) ?? '', found: asText(row[3]) ?? '' }, now);
  }
  for (const i of COUNTERS) {
    if (counter(row[i]) === 'bad') {
      const found = `string ${JSON.stringify(asText(row[i])!.slice(0, 40))}`;
      return unreadableRow(qname, { key: statsKeys(qname, now)[i]!, expected: 'integer string', found }, now);
    }
  }
  return toQueueStats(qname, row, now);
}

/** One stats script reply → its elapsed time and the raw rows of its queues. */
function statsReply(reply: unknown): { elapsedUs: number; rows: unknown[] } {
  const [elapsed, ...rows] = asArray(reply, 'queueStats');
  return { elapsedUs: asNumber(elapsed) ?? 0, rows };
}

/** Options of {@link listQueueStats}. */
export interface QueueStatsOptions {
  /** Called with each script call's queue count and Redis time (tests, the bench). */
  onCall?: (call: ChunkCall) => void;
}

/**
 * Stats of every queue in `asynq:queues`, sorted by name. SSCAN, then the stats script in
 * chunks sized by Redis' own time for each call (about 1 ms, see queue-stats-chunks.ts), up
 * to three calls in flight: two round trips while the queues fit in one call (about 60 at
 * first, what the last listing measured after), about 330-500 overlapping calls for 25,000
 * queues, after the 26 SSCAN calls of listQueueNames. (asynq's inspector needs
 * 1 + 3 per queue: a membership check, the stats script and the memory-usage script.)
 */
export async function listQueueStats(redis: RedisClient, now: Date, opts: QueueStatsOptions = {}): Promise<QueueStats[]> {
  const names = await listQueueNames(redis);
  if (names.length === 0) return [];
  if (isCluster(redis)) return listQueueStatsBySlot(redis, names, now, opts);
  const args = statsArgs(now);
  const rows = await readInChunks(redis, names, async (qs) => statsReply(await runScript(redis, 'queueStats', statsScriptKeys(qs), args)), opts.onCall);
  return names.map((q, i) => readStatsRow(q, rows[i], now));
}

/**
 * {@link listQueueStats} on a Redis Cluster, where one script cannot read queues of different
 * slots: the queues are grouped by slot and each group is read in chunks as on a single
 * server (one call per group unless a slot holds more than a chunk), all groups at once.
 * Round trips: SSCAN, then one per distinct queue slot (at most one per queue), concurrent.
 * A queue whose keys do not share a slot (see queueSlotProblem) is a row with `problem` set
 * rather than a failure of the whole list, and so is a queue whose master cannot be reached
 * (down, its connection refused or lost): the queues of the healthy masters are still shown.
 * A master that is stalled (timeout) or a cluster that refuses (CLUSTERDOWN) still fails the
 * whole list: those say something about all of Redis, and the request reports it.
 */
async function listQueueStatsBySlot(redis: Cluster, names: string[], now: Date, opts: QueueStatsOptions): Promise<QueueStats[]> {
  const bySlot = new Map<number, string[]>();
  const rows = new Map<string, QueueStats>();
  for (const q of names) {
    const problem = queueSlotProblem(q);
    if (problem !== null) rows.set(q, problemRow(q, problem, now));
    else bySlot.set(queueSlot(q), [...(bySlot.get(queueSlot(q)) ?? []), q]);
  }
  const args = statsArgs(now);
  const readChunk = async (qs: string[]) => statsReply(await runScript(redis, 'queueStats', statsScriptKeys(qs), args));
  await Promise.all(
    [...bySlot].map(async ([slot, qs]) => {
      let reply: unknown[];
      try {
        reply = await readInChunks(redis, qs, readChunk, opts.onCall);
      } catch (err) {
        if (!isUnreachable(err)) throw err;
        // The slot map names the master even while its connection is down.
        const node = redis.slots[slot]?.[0] ?? `the master of slot ${slot}`;
        const why = err instanceof Error ? `: ${err.message}` : '';
        for (const q of qs) rows.set(q, problemRow(q, `node ${node} unreachable${why}`, now));
        return;
      }
      qs.forEach((q, i) => rows.set(q, readStatsRow(q, reply[i], now)));
    }),
  );
  return names.map((q) => rows.get(q)!);
}

/**
 * Stats of one queue. One round trip: the membership check and the stats script go in one
 * pipeline (two concurrent ones on a cluster, where asynq:queues lives in another slot).
 */
export async function getQueueStats(redis: RedisClient, qname: string, now: Date): Promise<QueueStats> {
  assertQueueSlot(redis, 'getQueueStats', qname);
  const [[, member], [err, rows]] = await execPipeline(
    redis,
    (p) => {
      p.sismember(k.ALL_QUEUES, qname);
      pipeScript(p, 'queueStats', statsScriptKeys([qname]), statsArgs(now));
    },
    ['queueStats'],
  ) as [[Error | null, unknown], [Error | null, unknown]];
  if (member !== 1) throw queueNotFound('getQueueStats', qname);
  if (err) throw err;
  return readStatsRow(qname, statsReply(rows).rows[0], now);
}

/**
 * Processed and failed counts of the last `days` UTC days, newest first. One round trip:
 * the membership check and one MGET (every daily key shares the queue's hash slot).
 */
export async function getQueueHistory(
  redis: RedisClient,
  qname: string,
  days: number,
  now: Date,
): Promise<DailyStats[]> {
  if (!Number.isInteger(days) || days < 1 || days > 90) {
    throw invalidArgument('getQueueHistory', 'days', 'days must be an integer from 1 to 90');
  }
  assertQueueSlot(redis, 'getQueueHistory', qname);
  const dates = Array.from({ length: days }, (_, i) => new Date(now.getTime() - i * DAY_MS));
  const keys = dates.flatMap((d) => [k.processedKey(qname, d), k.failedKey(qname, d)]);
  const [[, member], [err, values]] = (await execPipeline(redis, (p) => p.sismember(k.ALL_QUEUES, qname).mget(...keys))) as [[Error | null, unknown], [Error | null, unknown]];
  if (member !== 1) throw queueNotFound('getQueueHistory', qname);
  if (err) throw err;
  // MGET answers nil for a key of another type; a string that is not a count is refused by name.
  const v = asArray(values, 'history').map((r, i) => {
    const c = counter(r);
    if (c !== 'bad') return c;
    const found = `string ${JSON.stringify(asText(r)!.slice(0, 40))}`;
    throw failedPrecondition('getQueueHistory', `${keys[i]} holds ${found} where asynq writes an integer string`, {
      queue: qname, key: keys[i], expected: 'integer string', found,
    });
  });
  return dates.map((d, i) => ({ date: k.utcDate(d), processed: v[2 * i]!, failed: v[2 * i + 1]! }));
}
