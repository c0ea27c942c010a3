/**
 * Malformed data stays where it is: one queue with a key of the wrong type, a counter that is
 * not a number, an undecodable task or a missing task hash is answered as that queue marked
 * unreadable (key, expected type, found type) or that task marked with its problem, while every
 * other queue, /api/queues, /api/metrics, history, search, failures, handler-not-found, locks,
 * duplicates and the task lists answer normally. The routes only read: the corrupt keys are
 * exactly as seeded afterwards.
 */
import type { Redis } from 'ioredis';
import { beforeEach, describe, expect, it } from 'vitest';
import { createInspector, keys as k } from '@/lib/asynq';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedActive, seedAggregating, seedLock, seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import { callRoute, type Handler } from '../../support/call-route';
import { countCommands } from '../../support/command-counter';
import { freshConsole } from '../../support/fresh-console';
import { snapshot as redisSnapshot } from '../../support/redis-snapshot';
import { testRedisUrl, useTestRedis } from '../../support/test-redis';
import type { ConsoleRoutes } from '../../support/console-routes';

const DB = 116;
const redis: Redis = await useTestRedis(DB);
const STATES = ['pending', 'active', 'scheduled', 'retry', 'archived', 'completed', 'aggregating'] as const;
const nowSec = () => Math.floor(Date.now() / 1000);
const today = () => new Date();

/** A healthy queue with a task in every state, a failure and a unique lock. */
async function seedGood(q: string) {
  const t = (extra = {}) => newTaskMessage({ type: 'email:send', queue: q, ...extra });
  await seedPending(redis, t());
  await seedActive(redis, t());
  await seedZset(redis, 'scheduled', t(), nowSec() + 60);
  await seedZset(redis, 'retry', t({ errorMsg: 'boom', retried: 1 }), nowSec() + 60);
  await seedZset(redis, 'archived', t({ errorMsg: 'handler not found for task "email:send"' }), nowSec() - 60);
  await seedZset(redis, 'completed', t(), nowSec() + 3600);
  await seedAggregating(redis, t({ groupKey: 'g' }));
  const locked = t({ uniqueKey: k.uniqueKey(q, 'email:send', Buffer.from('x')) });
  await seedPending(redis, locked);
  await seedLock(redis, locked.uniqueKey, locked.id, 600);
  await redis.set(k.processedTotalKey(q), '7');
}

/** A few ordinary tasks in the queue that is about to be corrupted. */
async function seedBadQueueTasks(q: string) {
  const t = () => newTaskMessage({ type: 'email:send', queue: q });
  await seedPending(redis, t());
  await seedZset(redis, 'retry', t(), nowSec() + 60);
}

const rawTask = async (q: string, id: string, listKey: string, fields: (string | Buffer)[] | null) => {
  await redis.sadd(k.ALL_QUEUES, q);
  if (fields) await redis.hset(k.taskKey(q, id), ...fields);
  await redis.lpush(listKey, id);
};

interface Kind {
  name: string;
  queue?: string;
  corrupt: (q: string) => Promise<unknown>;
  /** The reason the queue row must carry, or null when the queue stays readable. */
  unreadable: ((q: string) => { key: string; expected: string; found: string }) | null;
  /** A task whose row must carry this problem (corruptions of one task, not of the queue). */
  taskProblem?: { state: string; problem: RegExp };
  /**
   * The key scans pass over and name in `unreadable`: the duplicate scan (every state but
   * active) and, when `failures`, the failure scan (pending, scheduled, retry, archived).
   */
  scanSkips?: { key: (q: string) => string | string[]; failures: boolean };
}

const wrong = (key: (q: string) => string, expected: string, found: string) => (q: string) => ({ key: key(q), expected, found });

const KINDS: Kind[] = [
  { name: 'processed total counter is not a number', corrupt: (q) => redis.set(k.processedTotalKey(q), 'notanumber'), unreadable: wrong(k.processedTotalKey, 'integer string', 'string "notanumber"') },
  { name: 'failed total counter is not a number', corrupt: (q) => redis.set(k.failedTotalKey(q), '12abc'), unreadable: wrong(k.failedTotalKey, 'integer string', 'string "12abc"') },
  { name: "today's processed counter is a hash", corrupt: (q) => redis.hset(k.processedKey(q, today()), 'a', '1'), unreadable: wrong((q) => k.processedKey(q, today()), 'string', 'hash') },
  { name: "today's failed counter is a list", corrupt: (q) => redis.rpush(k.failedKey(q, today()), 'x'), unreadable: wrong((q) => k.failedKey(q, today()), 'string', 'list') },
  { name: 'pending list is a string', corrupt: async (q) => { await redis.del(k.pendingKey(q)); await redis.set(k.pendingKey(q), 'x'); }, unreadable: wrong(k.pendingKey, 'list', 'string'), scanSkips: { key: k.pendingKey, failures: true } },
  { name: 'active list is a string', corrupt: (q) => redis.set(k.activeKey(q), 'x'), unreadable: wrong(k.activeKey, 'list', 'string') },
  { name: 'active list is a hash', corrupt: (q) => redis.hset(k.activeKey(q), 'a', 'b'), unreadable: wrong(k.activeKey, 'list', 'hash') },
  { name: 'pending list is a set', corrupt: async (q) => { await redis.del(k.pendingKey(q)); await redis.sadd(k.pendingKey(q), 'x'); }, unreadable: wrong(k.pendingKey, 'list', 'set'), scanSkips: { key: k.pendingKey, failures: true } },
  { name: 'scheduled zset is a list', corrupt: (q) => redis.rpush(k.scheduledKey(q), 'x'), unreadable: wrong(k.scheduledKey, 'zset', 'list'), scanSkips: { key: k.scheduledKey, failures: true } },
  { name: 'retry zset is a list', corrupt: async (q) => { await redis.del(k.retryKey(q)); await redis.rpush(k.retryKey(q), 'x'); }, unreadable: wrong(k.retryKey, 'zset', 'list'), scanSkips: { key: k.retryKey, failures: true } },
  { name: 'archived zset is a string', corrupt: (q) => redis.set(k.archivedKey(q), 'x'), unreadable: wrong(k.archivedKey, 'zset', 'string'), scanSkips: { key: k.archivedKey, failures: true } },
  { name: 'completed zset is a list', corrupt: (q) => redis.rpush(k.completedKey(q), 'x'), unreadable: wrong(k.completedKey, 'zset', 'list'), scanSkips: { key: k.completedKey, failures: false } },
  { name: 'paused key is a hash', corrupt: (q) => redis.hset(k.pausedKey(q), 'a', 'b'), unreadable: wrong(k.pausedKey, 'string', 'hash') },
  { name: 'group registry is a string', corrupt: (q) => redis.set(k.allGroups(q), 'x'), unreadable: wrong(k.allGroups, 'set', 'string'), scanSkips: { key: k.allGroups, failures: false } },
  { name: 'a group zset is a list', corrupt: async (q) => { await redis.sadd(k.allGroups(q), 'g1'); await redis.rpush(k.groupKey(q, 'g1'), 'x'); }, unreadable: wrong((q) => k.groupKey(q, 'g1'), 'zset', 'list'), scanSkips: { key: (q) => k.groupKey(q, 'g1'), failures: false } },
  {
    name: 'oldest pending task hash is a string',
    corrupt: async (q) => { await redis.rpush(k.pendingKey(q), 'old'); await redis.set(k.taskKey(q, 'old'), 'x'); },
    unreadable: wrong((q) => k.taskKey(q, 'old'), 'hash', 'string'),
  },
  // Corruptions of one task or of a structure stats never read: the queue stays readable.
  { name: 'paused key holds no timestamp', corrupt: (q) => redis.set(k.pausedKey(q), 'yes'), unreadable: null },
  { name: 'lease zset is a string', corrupt: (q) => redis.set(k.leaseKey(q), 'x'), unreadable: null },
  { name: 'aggregation sets registry is a string', corrupt: (q) => redis.set(k.allAggregationSets(q), 'x'), unreadable: null },
  { name: 'task hash missing', corrupt: (q) => rawTask(q, 'ghost', k.pendingKey(q), null), unreadable: null, taskProblem: { state: 'pending', problem: /task hash missing/ } },
  { name: 'task hash without msg', corrupt: (q) => rawTask(q, 'nomsg', k.pendingKey(q), ['state', 'pending']), unreadable: null, taskProblem: { state: 'pending', problem: /no msg/ } },
  {
    name: 'msg is not protobuf',
    corrupt: (q) => rawTask(q, 'junk', k.activeKey(q), ['msg', Buffer.from([0xff, 0xff, 0xff, 0x01, 0x02]), 'state', 'active']),
    unreadable: null,
    taskProblem: { state: 'active', problem: /msg is/ },
  },
  {
    name: 'msg is protobuf with wrong field types',
    // field 1 (type, a string) written as a varint, field 2 (payload, bytes) as a fixed64.
    corrupt: (q) => rawTask(q, 'wrongwire', k.pendingKey(q), ['msg', Buffer.from([0x08, 0x05, 0x11, 1, 2, 3, 4, 5, 6, 7, 8]), 'state', 'pending']),
    unreadable: null,
    taskProblem: { state: 'pending', problem: /msg is/ },
  },
  {
    name: 'retry task whose msg is garbage',
    corrupt: async (q) => { await redis.sadd(k.ALL_QUEUES, q); await redis.hset(k.taskKey(q, 'rj'), 'msg', Buffer.from('{"json":1}'), 'state', 'retry'); await redis.zadd(k.retryKey(q), nowSec(), 'rj'); },
    unreadable: null,
    taskProblem: { state: 'retry', problem: /msg is/ },
  },
  { name: 'unique lock is a hash', corrupt: async (q) => { const m = newTaskMessage({ type: 't', queue: q, uniqueKey: k.uniqueKey(q, 't', null) }); await seedPending(redis, m); await redis.hset(m.uniqueKey, 'a', 'b'); }, unreadable: null },
  { name: 'a queue of asynq:queues with only odd keys', queue: 'we{ird', corrupt: async (q) => { await redis.sadd(k.ALL_QUEUES, q); await redis.set(k.pendingKey(q), 'x'); await redis.hset(k.scheduledKey(q), 'a', 'b'); }, unreadable: wrong(k.pendingKey, 'list', 'string'), scanSkips: { key: (q) => [k.pendingKey(q), k.scheduledKey(q)], failures: true } },
  { name: 'a queue of asynq:queues with no keys at all', queue: 'ghost', corrupt: (q) => redis.sadd(k.ALL_QUEUES, q), unreadable: null },
];

/** The read routes every case is checked through, from the console freshly loaded for it. */
function readRoutes(r: ConsoleRoutes) {
  const h = (m: unknown) => m as { GET: Handler };
  return {
    queues: h(r.queues),
    queue: h(r.queue),
    history: h(r.history),
    tasks: h(r.tasks),
    groups: h(r.groups),
    queueLocks: h(r.locks),
    duplicates: h(r.duplicates),
    metrics: h(r.metrics),
    search: h(r.search),
    failures: h(r.failures),
    notFound: h(r.notFound),
    locks: h(r.allLocks),
    taskTypes: h(r.taskTypes),
  };
}

let routes: ReturnType<typeof readRoutes>;

beforeEach(async () => {
  // Each case is new data under the same names: no scan or view of the previous case may answer.
  const g = globalThis as { asynqlensScanJobs?: unknown; asynqlensViews?: unknown };
  delete g.asynqlensScanJobs;
  delete g.asynqlensViews;
  routes = readRoutes(await freshConsole({ REDIS_URL: testRedisUrl(DB) }));
});

const get = (r: Handler, path: string, params: Record<string, string> = {}) => callRoute(r, path, params);

/** A scan route answered until it says it is complete (each call waits up to 2 s). */
async function untilComplete(r: Handler, path: string, params: Record<string, string> = {}) {
  for (let i = 0; i < 20; i++) {
    const res = await get(r, path, params);
    if (res.status !== 200 || res.body.complete !== false) return res;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`${path} did not complete`);
}

describe.each(KINDS)('$name', (kind) => {
  const bad = kind.queue ?? 'bad';
  const good = 'good';

  it('marks only that queue (or task) and every read of the console still answers', async () => {
    await seedGood(good);
    await seedBadQueueTasks(bad);
    await kind.corrupt(bad);
    const before = await redisSnapshot(redis);

    // The queue list, one queue, and the metrics.
    const list = await get(routes.queues.GET, '/api/queues');
    expect(list.status).toBe(200);
    const rows = new Map(list.body.queues.map((q: { queue: string }) => [q.queue, q]));
    expect(rows.get(good)).toMatchObject({ pending: 2, active: 1, scheduled: 1, retry: 1, archived: 1, completed: 1, aggregating: 1, processedTotal: 7, problem: null, unreadable: null });
    const badRow = rows.get(bad) as { problem: string | null; unreadable: unknown };
    const one = await get(routes.queue.GET, `/api/queues/${encodeURIComponent(bad)}`, { qname: bad });
    expect(one.status).toBe(200);
    const metrics = await get(routes.metrics.GET, '/api/metrics');
    expect(metrics.status).toBe(200);
    const text = metrics.bytes.toString('utf8');
    expect(text).toContain(`asynq_queue_size{queue="${good}"} 8`);
    if (kind.unreadable) {
      const reason = kind.unreadable(bad);
      expect(badRow.unreadable).toEqual(reason);
      expect(badRow.problem).toContain(reason.key);
      expect(one.body.unreadable).toEqual(reason);
      expect(text).toContain(`asynqlens_queue_unreadable{queue="${bad}"} 1`);
      expect(text).not.toContain(`asynq_queue_size{queue="${bad}"}`);
    } else {
      expect(badRow).toMatchObject({ problem: null, unreadable: null });
      expect(text).toContain(`asynq_queue_size{queue="${bad}"}`);
      expect(text).not.toContain('asynqlens_queue_unreadable{');
    }

    // History, groups, the task lists of both queues, every state.
    for (const q of [good, bad]) {
      const p = { qname: q };
      const e = encodeURIComponent(q);
      const history = await get(routes.history.GET, `/api/queues/${e}/history?days=7`, p);
      if (q === good) expect(history.status).toBe(200);
      else expect(history.status, JSON.stringify(history.body)).toBeLessThan(500);
      expect((await get(routes.groups.GET, `/api/queues/${e}/groups`, p)).status).toBeLessThan(500);
      for (const state of STATES) {
        const query = state === 'aggregating' ? `state=${state}&group=g` : `state=${state}`;
        const res = await get(routes.tasks.GET, `/api/queues/${e}/tasks?${query}`, p);
        if (q === good) expect([state, res.status]).toEqual([state, 200]);
        else expect(res.status, `${state}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      }
      const locks = await get(routes.queueLocks.GET, `/api/queues/${e}/locks`, p);
      expect([q, locks.status]).toEqual([q, 200]);
      const dups = await untilComplete(routes.duplicates.GET, `/api/queues/${e}/duplicates`, p);
      expect([q, dups.status, dups.body.error]).toEqual([q, 200, undefined]);
      expect(dups.body.unreadable).toEqual(q === bad && kind.scanSkips ? [kind.scanSkips.key(bad)].flat() : []);
    }
    if (kind.taskProblem) {
      const res = await get(routes.tasks.GET, `/api/queues/${bad}/tasks?state=${kind.taskProblem.state}&size=100`, { qname: bad });
      expect(res.status).toBe(200);
      expect(res.body.tasks.map((t: { problem: string | null }) => t.problem).filter(Boolean)).toEqual([expect.stringMatching(kind.taskProblem.problem)]);
    }

    // Scans over every queue: search, failures, handler-not-found, the lock list, task types.
    const search = await untilComplete(routes.search.GET, '/api/tasks/search?size=100');
    expect(search.status, JSON.stringify(search.body)).toBe(200);
    expect(search.body.tasks.filter((t: { queue: string }) => t.queue === good)).toHaveLength(8);
    const failures = await untilComplete(routes.failures.GET, '/api/failures?wait=5000');
    expect(failures.status, JSON.stringify(failures.body)).toBe(200);
    expect(failures.body.queues).toContain(good);
    expect(failures.body.unreadable).toEqual(kind.scanSkips?.failures ? [kind.scanSkips.key(bad)].flat() : []);
    const notFound = await untilComplete(routes.notFound.GET, '/api/handler-not-found?wait=5000');
    expect(notFound.status, JSON.stringify(notFound.body)).toBe(200);
    const everyLock = await get(routes.locks.GET, '/api/locks');
    expect(everyLock.status, JSON.stringify(everyLock.body)).toBe(200);
    expect(everyLock.body.locks.some((l: { key: string }) => l.key.startsWith(k.uniqueKeyPrefix(good)))).toBe(true);
    const types = await untilComplete(routes.taskTypes.GET, '/api/task-types?wait=5000');
    expect(types.status, JSON.stringify(types.body)).toBe(200);

    // Reads only: nothing was "repaired".
    expect(await redisSnapshot(redis)).toEqual(before);
  });
});

describe('the cost of isolating a malformed queue', () => {
  it('lists queues in the same two commands with or without a corrupt one (one TYPE inside the script for the bad key)', async () => {
    for (let i = 0; i < 20; i++) await seedGood(`q${i}`);
    const inspector = createInspector(redis);
    await inspector.queues(); // the script loaded, as on a running server
    const healthy = await countCommands(testRedisUrl(DB), DB, () => inspector.queues());
    await redis.set(k.activeKey('q7'), 'x');
    await redis.set(k.processedTotalKey('q8'), 'notanumber');
    const corrupt = await countCommands(testRedisUrl(DB), DB, () => inspector.queues());
    expect(healthy.commands).toEqual(['sscan', 'evalsha_ro']);
    expect(corrupt.commands).toEqual(['sscan', 'evalsha_ro']);
    expect(healthy.scriptCommands).not.toContain('type');
    expect(corrupt.scriptCommands.filter((c) => c === 'type')).toEqual(['type']);
    expect(corrupt.result.filter((q) => q.problem).map((q) => q.queue)).toEqual(['q7', 'q8']);
    expect(corrupt.result.find((q) => q.queue === 'q9')).toMatchObject({ size: 8, problem: null });
  });
});
