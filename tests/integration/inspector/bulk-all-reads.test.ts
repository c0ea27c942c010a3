/**
 * move-all.lua reads a slice's IDs and fields in one SORT ... BY nosort GET where it can, and
 * task by task (LRANGE / ZRANGE, then HGET or HMGET) where it cannot: a queue name holding
 * SORT's `*`, or a user whose ACL refuses SORT. Both ways must end the same on a real Redis:
 * the same order, the same tasks left in place and reported, the same locks released.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { bulkAll, keys as k } from '@/lib/asynq';
import { encodeTaskMessage } from '@/lib/asynq/codec';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { testRedisUrl, useTestRedis } from '../../support/test-redis';

const DB = 97;
const redis = await useTestRedis(DB);

/** A user that may run everything but SORT, so the script's SORT is refused. */
const NO_SORT_USER = 'bulk-all-reads-nosort';
await redis.call('ACL', 'SETUSER', NO_SORT_USER, 'reset', 'on', '>pw', '~*', '&*', '+@all', '-sort');
const url = new URL(testRedisUrl(DB));
const noSort = new Redis({ host: url.hostname, port: Number(url.port), db: DB, username: NO_SORT_USER, password: 'pw', maxRetriesPerRequest: 1 });
afterAll(async () => {
  noSort.disconnect();
  await redis.call('ACL', 'DELUSER', NO_SORT_USER);
});

const id = (q: string, i: number) => `${q.replace(/\W/g, '')}-${String(i).padStart(4, '0')}`;

/**
 * `n` plain tasks in `state`, the oldest first, then at its end: one holding its unique lock,
 * one naming a lock another task holds, one grouped task holding a lock named only in its msg,
 * one ID without a hash, and one whose hash says active (left in place).
 */
async function seed(q: string, state: 'pending' | 'archived', n: number): Promise<{ ids: string[]; odd: Record<'locked' | 'foreign' | 'grouped' | 'missing' | 'active', string> }> {
  const p = redis.pipeline().sadd(k.ALL_QUEUES, q);
  const ids: string[] = [];
  const add = (tid: string, fields: (string | Buffer)[]) => {
    ids.push(tid);
    if (fields.length) p.hset(k.taskKey(q, tid), ...fields);
    if (state === 'pending') p.lpush(k.pendingKey(q), tid);
    else p.zadd(k.archivedKey(q), 1_700_000_000 + ids.length, tid);
  };
  const msg = (tid: string, extra: Partial<Parameters<typeof newTaskMessage>[0]> = {}) =>
    Buffer.from(encodeTaskMessage(newTaskMessage({ type: 't', queue: q, id: tid, ...extra })));
  for (let i = 0; i < n; i++) add(id(q, i), ['msg', msg(id(q, i)), 'state', state]);
  const odd = { locked: id(q, n), foreign: id(q, n + 1), grouped: id(q, n + 2), missing: id(q, n + 3), active: id(q, n + 4) };
  const lock = (name: string) => `${k.uniqueKeyPrefix(q)}${name}`;
  add(odd.locked, ['msg', msg(odd.locked), 'state', state, 'unique_key', lock('a')]);
  p.set(lock('a'), odd.locked);
  add(odd.foreign, ['msg', msg(odd.foreign), 'state', state, 'unique_key', lock('b')]);
  p.set(lock('b'), 'someone-else');
  add(odd.grouped, ['msg', msg(odd.grouped, { groupKey: 'g1', uniqueKey: lock('c') }), 'state', state, 'group', 'g1']);
  p.set(lock('c'), odd.grouped);
  add(odd.missing, []);
  add(odd.active, ['msg', msg(odd.active), 'state', 'active']);
  await p.exec();
  return { ids, odd };
}

/** Where everything ended, with the queue's name taken out so that two queues compare. */
async function outcome(q: string, ids: string[]) {
  const strip = (s: string) => s.replace(q.replace(/\W/g, ''), 'Q');
  const [pending, archived, hashes, locks] = await Promise.all([
    redis.lrange(k.pendingKey(q), 0, -1),
    redis.zrange(k.archivedKey(q), 0, -1),
    Promise.all(ids.map((t) => redis.hget(k.taskKey(q, t), 'state'))),
    Promise.all(['a', 'b', 'c'].map((l) => redis.get(`${k.uniqueKeyPrefix(q)}${l}`))),
  ]);
  return { pending: pending.map(strip), archived: archived.map(strip), hashes, locks: locks.map((l) => l && strip(l)) };
}

const QUEUES = [
  { name: 'reads', client: () => redis, how: 'one SORT per slice' },
  { name: 'reads*star', client: () => redis, how: "task by task: the name holds SORT's *" },
  { name: 'reads-acl', client: () => noSort, how: 'task by task: the ACL refuses SORT' },
];

describe('bulkAll reads a slice in one SORT or task by task, with the same outcome', () => {
  it('delete-all: locks released only where held by the task, a missing hash removed, an active task left and reported', async () => {
    const results = [];
    for (const q of QUEUES) {
      const { ids, odd } = await seed(q.name, 'pending', 40);
      const r = await bulkAll(q.client(), q.name, 'delete', 'pending', { batchSize: 16 });
      expect(r.succeeded, q.how).toBe(44);
      expect(r.failed.map((f) => f.id), q.how).toEqual([odd.active]);
      const o = await outcome(q.name, ids);
      expect(o.pending, q.how).toEqual(['Q-0044']);
      expect(o.hashes.filter(Boolean), q.how).toEqual(['active']);
      expect(o.locks, q.how).toEqual([null, 'someone-else', null]);
      results.push(o);
    }
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  });

  it('run-all from archived and archive-all from pending keep the oldest-first order either way', async () => {
    const results = [];
    for (const q of QUEUES) {
      const run = await seed(q.name, 'archived', 40);
      const r = await bulkAll(q.client(), q.name, 'run', 'archived', { batchSize: 16 });
      // The ID without a hash and the active one stay in the archive, reported.
      expect(r.succeeded, q.how).toBe(43);
      expect(r.failed.map((f) => f.id).sort(), q.how).toEqual([run.odd.missing, run.odd.active].sort());
      const afterRun = await outcome(q.name, run.ids);
      // Asynq's RunAll leaves the oldest task at the tail, where workers take from.
      expect(afterRun.pending.at(-1), q.how).toBe('Q-0000');
      await redis.del(k.pendingKey(q.name), k.archivedKey(q.name));
      const arch = await seed(q.name, 'pending', 40);
      const a = await bulkAll(q.client(), q.name, 'archive', 'pending', { batchSize: 16 });
      expect(a.succeeded, q.how).toBe(43);
      results.push({ afterRun, afterArchive: await outcome(q.name, arch.ids) });
    }
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  });
});
