/**
 * Task-by-task checks after a bulk run: every seeded task is accounted for exactly once, in
 * the set its hash names, and nothing else appeared. Admin-side reads in chunks of 10,000
 * (LRANGE, ZRANGE, pipelined HGET, SCAN), run after the measurement, so they cost nothing in it.
 */
import type { Redis } from 'ioredis';
import { encodeTaskMessage } from '../lib/asynq/codec';
import * as k from '../lib/asynq/keys';
import { expectedMessage, taskId, type TaskBatch } from './task-message';

const CHUNK = 10_000;

async function listMembers(redis: Redis, key: string): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; ; i += CHUNK) {
    const part = await redis.lrange(key, i, i + CHUNK - 1);
    out.push(...part);
    if (part.length < CHUNK) return out;
  }
}

async function zsetMembers(redis: Redis, key: string): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; ; i += CHUNK) {
    const part = await redis.zrange(key, i, i + CHUNK - 1);
    out.push(...part);
    if (part.length < CHUNK) return out;
  }
}

/** The `state` field of each task's hash, null where the hash is gone. */
async function hashStates(redis: Redis, qname: string, ids: readonly string[]): Promise<(string | null)[]> {
  const out: (string | null)[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const p = redis.pipeline();
    for (const id of ids.slice(i, i + CHUNK)) p.hget(k.taskKey(qname, id), 'state');
    for (const [err, v] of (await p.exec()) ?? []) {
      if (err) throw err;
      out.push(v as string | null);
    }
  }
  return out;
}

/** The IDs of every task hash of the queue (SCAN MATCH asynq:{q}:t:*). */
async function scanTaskHashes(redis: Redis, qname: string): Promise<Set<string>> {
  const prefix = k.taskKeyPrefix(qname);
  const ids = new Set<string>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', CHUNK);
    for (const key of keys) ids.add(key.slice(prefix.length));
    cursor = next;
  } while (cursor !== '0');
  return ids;
}

function seededIds(batch: TaskBatch): string[] {
  return Array.from({ length: batch.count }, (_, i) => taskId(batch, i + 1));
}

/** At most a few examples of a problem, so a broken run does not print a million lines. */
function problem(list: string[], what: string, examples: readonly string[], count = examples.length): void {
  if (count > 0) list.push(`${count.toLocaleString('en-US')} ${what}${examples.length ? ` (e.g. ${examples.slice(0, 3).join(', ')})` : ''}`);
}

/** msg bytes must survive a move untouched (asynq rewrites no msg on run or archive). */
async function checkMsgs(redis: Redis, batch: TaskBatch, indexes: readonly number[], problems: string[]): Promise<void> {
  const bad: string[] = [];
  for (const i of indexes) {
    const want = Buffer.from(encodeTaskMessage(expectedMessage(batch, i)));
    const got = await redis.hgetBuffer(k.taskKey(batch.queue, taskId(batch, i)), 'msg');
    if (!got?.equals(want)) bad.push(taskId(batch, i));
  }
  problem(problems, 'moved tasks whose msg bytes changed', bad);
}

export interface RunAllCheck {
  pending: number;
  archived: number;
  problems: string[];
}

/**
 * After run-all over `batch` (seeded archived): every seeded ID is in pending exactly once,
 * nothing else is, archived is empty, every hash says pending and no hash is missing or extra.
 */
export async function checkRunAll(redis: Redis, batch: TaskBatch): Promise<RunAllCheck> {
  const q = batch.queue;
  const problems: string[] = [];
  const ids = seededIds(batch);
  const seeded = new Set(ids);
  const pending = await listMembers(redis, k.pendingKey(q));
  const seen = new Map<string, number>();
  for (const id of pending) seen.set(id, (seen.get(id) ?? 0) + 1);
  const missing = ids.filter((id) => !seen.has(id));
  problem(problems, 'seeded tasks missing from pending', missing.slice(0, 3), missing.length);
  const dup = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  problem(problems, 'tasks in pending more than once', dup);
  problem(problems, 'unknown IDs in pending', [...seen.keys()].filter((id) => !seeded.has(id)));
  const archived = await redis.zcard(k.archivedKey(q));
  if (archived !== 0) problems.push(`archived still has ${archived} members`);
  const states = await hashStates(redis, q, ids);
  const wrong = ids.filter((_, i) => states[i] !== 'pending');
  problem(problems, 'hashes whose state is not pending', wrong.slice(0, 3).map((id) => `${id}: ${String(states[ids.indexOf(id)])}`), wrong.length);
  const hashes = await scanTaskHashes(redis, q);
  problem(problems, 'task hashes that were never seeded', [...hashes].filter((id) => !seeded.has(id)));
  await checkMsgs(redis, batch, [1, Math.ceil(batch.count / 2), batch.count], problems);
  return { pending: pending.length, archived, problems };
}

export interface ArchiveAllCheck {
  pending: number;
  archived: number;
  /** Seeded tasks in no set whose hash is still there (asynq's inspector leaves them). */
  orphans: number;
  /** Seeded tasks in no set whose hash is gone (trimmed properly). */
  gone: number;
  problems: string[];
}

/**
 * After archive-all over `batch` (seeded pending): pending is empty, the archive holds
 * `archiveCap` seeded tasks whose hashes say archived, and every other seeded task is in no
 * set. `problems` lists everything else; an orphan hash is a problem only when `orphansOk` is
 * false (for asynq they are what its inspector does, and are reported, not judged).
 */
export async function checkArchiveAll(redis: Redis, batch: TaskBatch, archiveCap: number, orphansOk: boolean): Promise<ArchiveAllCheck> {
  const q = batch.queue;
  const problems: string[] = [];
  const ids = seededIds(batch);
  const seeded = new Set(ids);
  const pending = await redis.llen(k.pendingKey(q));
  if (pending !== 0) problems.push(`pending still has ${pending} members`);
  const archivedIds = await zsetMembers(redis, k.archivedKey(q));
  const inArchive = new Set(archivedIds);
  if (archivedIds.length !== Math.min(archiveCap, batch.count)) {
    problems.push(`archived has ${archivedIds.length} members, expected ${Math.min(archiveCap, batch.count)}`);
  }
  problem(problems, 'unknown IDs in archived', archivedIds.filter((id) => !seeded.has(id)));
  const states = await hashStates(redis, q, ids);
  let orphans = 0;
  let gone = 0;
  const badArchived: string[] = [];
  const orphanExamples: string[] = [];
  ids.forEach((id, i) => {
    const s = states[i] ?? null;
    if (inArchive.has(id)) {
      if (s !== 'archived') badArchived.push(`${id}: ${String(s)}`);
    } else if (s === null) gone++;
    else {
      orphans++;
      if (orphanExamples.length < 3) orphanExamples.push(`${id}: state ${s}`);
    }
  });
  problem(problems, 'archived tasks whose hash does not say archived', badArchived);
  if (!orphansOk) problem(problems, 'tasks in no set whose hash is still there (orphans)', orphanExamples, orphans);
  if (archivedIds.length + gone + orphans !== batch.count) {
    problems.push(`archived ${archivedIds.length} + gone ${gone} + orphans ${orphans} ≠ ${batch.count} seeded`);
  }
  const hashes = await scanTaskHashes(redis, q);
  problem(problems, 'task hashes that were never seeded', [...hashes].filter((id) => !seeded.has(id)));
  if (hashes.size !== archivedIds.length + orphans) problems.push(`SCAN finds ${hashes.size} task hashes, expected ${archivedIds.length + orphans}`);
  await checkMsgs(redis, batch, archivedIds.slice(0, 3).map((id) => ids.indexOf(id) + 1), problems);
  return { pending, archived: archivedIds.length, orphans, gone, problems };
}

export interface DeleteAllCheck {
  /** Seeded tasks still in the state's structure. */
  left: number;
  /** Task hashes of the queue still there. */
  hashes: number;
  problems: string[];
}

/** After delete-all over `batch` (seeded pending): the list is empty and no task hash is left. */
export async function checkDeleteAll(redis: Redis, batch: TaskBatch): Promise<DeleteAllCheck> {
  const q = batch.queue;
  const problems: string[] = [];
  const left = batch.state === 'pending' ? await redis.llen(k.pendingKey(q)) : await redis.zcard(k.stateKey(q, batch.state));
  if (left !== 0) problems.push(`${batch.state} still has ${left} members`);
  const hashes = await scanTaskHashes(redis, q);
  problem(problems, 'task hashes left behind', [...hashes].slice(0, 3), hashes.size);
  return { left, hashes: hashes.size, problems };
}
