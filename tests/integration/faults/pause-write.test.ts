/**
 * `CLIENT PAUSE … WRITE` (a manual failover, Sentinel or Cluster failover, an operator) holds
 * only clients that send writes. Redis counts EVAL/EVALSHA as writes whatever the script does,
 * so the console's read scripts go as EVALSHA_RO / EVAL_RO on Redis 7+: the dashboard's reads
 * answer at once during the pause, while a change waits for it (503 stalled, outcome unknown,
 * applied once when the pause ends, as in stall.test.ts).
 *
 * Also proves each `@readonly` script really never writes: all of them run under EVALSHA_RO
 * (and EVAL_RO, the NOSCRIPT path) during a pause, on data that takes every branch; Redis fails
 * a write from a read-only script.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as k from '@/lib/asynq/keys';
import { createRedis } from '@/lib/asynq/redis';
import { runScript, type ScriptArg, type ScriptName } from '@/lib/asynq/scripts';
import { LUA_SCRIPTS } from '@/lib/asynq/scripts/registry.gen';
import { json, newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedActive, seedAggregating, seedLock, seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import { isRedisStalled } from '@/lib/server/redis/stall';
import { startRedisServer, type RunningRedis } from '../../../scripts/support/redis-server';
import { get, post, report, timed, waitFor } from './helpers';
import { consoleRoutes } from '../../support/console-routes';

const TIMEOUT_MS = 1000;
const PAUSE_MS = 3000;
/** A read that waited behind the pause would take the command timeout (1 s) or the pause (3 s). */
const FAST_MS = 200;
const Q = 'paused-writes';
let server: RunningRedis;
let admin: Redis;
const unique = newTaskMessage({ type: 'u', queue: Q, payload: json({ n: 1 }), uniqueKey: k.uniqueKey(Q, 'u', json({ n: 1 })) });
const active = newTaskMessage({ type: 'a', queue: Q });
const scheduled = newTaskMessage({ type: 's', queue: Q });
const grouped = newTaskMessage({ type: 'g', queue: Q, groupKey: 'g1' });

beforeAll(async () => {
  server = await startRedisServer({ label: 'pause-write' });
  process.env.REDIS_URL = `${server.url}/0`;
  process.env.ASYNQLENS_COMMAND_TIMEOUT_MS = String(TIMEOUT_MS);
  admin = new Redis(server.url, { maxRetriesPerRequest: 1 });
  await admin.sadd(k.ALL_QUEUES, Q);
  await seedPending(admin, unique);
  // No TTL: its PTTL (-1) reads the same on every call.
  await seedLock(admin, unique.uniqueKey, unique.id);
  await seedActive(admin, active, Math.floor(Date.now() / 1000) - 60);
  await seedZset(admin, 'scheduled', scheduled, Math.floor(Date.now() / 1000) + 600);
  await seedAggregating(admin, grouped);
  // An aggregation set, as a worker's aggregation check leaves it.
  const setKey = `${k.groupKey(Q, 'g1')}:set1`;
  await admin.zadd(setKey, 1, grouped.id);
  await admin.zadd(k.allAggregationSets(Q), Math.floor(Date.now() / 1000) + 60, setKey);
});
afterAll(async () => {
  admin.disconnect();
  await server.stop();
});

/** Calls of a command Redis has served, from INFO commandstats. */
async function calls(command: string): Promise<number> {
  const m = new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(await admin.info('commandstats'));
  return Number(m?.[1] ?? 0);
}

describe('CLIENT PAUSE WRITE', () => {
  it('the queue list, queue stats, a task list, a task detail and the groups answer 200 at once; a change waits for the pause', async () => {
    const r = await consoleRoutes();
    // A fresh script cache: the reads' NOSCRIPT path (EVAL_RO) runs during the pause too, as
    // does each connection's one-off version check (INFO, a read).
    await admin.script('FLUSH');
    // Except the enqueue's (a plain enqueue on one Redis: enqueue.lua with asynq:queues): a held
    // EVALSHA that meets NOSCRIPT after the pause is not retried.
    await admin.script('LOAD', LUA_SCRIPTS.enqueue.lua);
    await admin.call('CLIENT', 'PAUSE', String(PAUSE_MS), 'WRITE');
    const pausedAt = Date.now();
    const reads = [
      ['queue list', () => get(r.queues.GET)],
      ['queue stats', () => get(r.queue.GET, { qname: Q }, `/api/queues/${Q}`)],
      ['pending tasks', () => get(r.tasks.GET, { qname: Q }, `/api/queues/${Q}/tasks?state=pending`)],
      ['active tasks', () => get(r.tasks.GET, { qname: Q }, `/api/queues/${Q}/tasks?state=active`)],
      ['task detail', () => get(r.task.GET, { qname: Q, taskId: unique.id }, `/api/queues/${Q}/tasks/${unique.id}`)],
      ['groups', () => get(r.groups.GET, { qname: Q }, `/api/queues/${Q}/groups`)],
    ] as const;
    for (const [what, call] of reads) {
      const res = await timed(call);
      report(`CLIENT PAUSE WRITE: ${what} → ${res.status}`, res.ms);
      expect([what, res.status], JSON.stringify(res.body)).toEqual([what, 200]);
      expect(res.ms).toBeLessThan(FAST_MS);
    }
    const detail = await get(r.task.GET, { qname: Q, taskId: unique.id }, `/api/queues/${Q}/tasks/${unique.id}`);
    expect(detail.body).toMatchObject({ id: unique.id, state: 'pending' });
    // Still inside the pause: these were served during it, not after it.
    expect(Date.now() - pausedAt).toBeLessThan(PAUSE_MS - 500);

    const before = await admin.llen(k.pendingKey(Q));
    const change = await timed(() => post(r.tasks.POST, { qname: Q }, { type: 'during-pause' }));
    report('CLIENT PAUSE WRITE: enqueue → 503', change.ms);
    expect(change.status).toBe(503);
    expect(change.body.error).toMatchObject({ code: 'redis_unavailable', reason: 'stalled', outcome: 'unknown' });
    expect(change.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);

    await waitFor('the pause to end', () => Date.now() >= pausedAt + PAUSE_MS, PAUSE_MS + 1000, 10);
    await waitFor('the probe to clear the stall mark', () => !isRedisStalled(), 2 * TIMEOUT_MS, 5);
    expect((await get(r.queues.GET)).status).toBe(200);
    // Redis held the enqueue and ran it when the pause ended: exactly once.
    expect(await admin.llen(k.pendingKey(Q))).toBe(before + 1);
  });
});

describe('@readonly scripts', () => {
  const now = Math.floor(Date.now() / 1000);
  const today = new Date();
  // The stats script takes each queue's key prefix, and the key suffixes once.
  const statsKeys = [k.queueKeyPrefix(Q)];
  const statsSuffixes = [
    k.pendingKey(Q), k.activeKey(Q), k.scheduledKey(Q), k.retryKey(Q), k.archivedKey(Q), k.completedKey(Q),
    k.processedKey(Q, today), k.failedKey(Q, today), k.processedTotalKey(Q), k.failedTotalKey(Q), k.pausedKey(Q), k.allGroups(Q),
    k.taskKeyPrefix(Q), k.groupKeyPrefix(Q),
  ].map((key) => key.slice(k.queueKeyPrefix(Q).length));
  /** Each read-only script with arguments that take its branches (locks, leases, scores, groups). */
  const cases: [ScriptName, string[], ScriptArg[]][] = [
    ['getTask', [k.taskKey(Q, unique.id), k.leaseKey(Q)], [unique.id, k.queueKeyPrefix(Q), k.uniqueKeyPrefix(Q)]],
    ['getTask', [k.taskKey(Q, active.id), k.leaseKey(Q)], [active.id, k.queueKeyPrefix(Q), k.uniqueKeyPrefix(Q)]],
    ['getTask', [k.taskKey(Q, scheduled.id), k.leaseKey(Q)], [scheduled.id, k.queueKeyPrefix(Q), k.uniqueKeyPrefix(Q)]],
    ['getTask', [k.taskKey(Q, 'missing'), k.leaseKey(Q)], ['missing', k.queueKeyPrefix(Q), k.uniqueKeyPrefix(Q)]],
    ['listGroups', [k.allGroups(Q)], [k.groupKeyPrefix(Q)]],
    ['listTasks', [k.pendingKey(Q), k.leaseKey(Q)], ['list', 0, 9, k.taskKeyPrefix(Q), k.uniqueKeyPrefix(Q), '0']],
    ['listTasks', [k.activeKey(Q), k.leaseKey(Q)], ['list', 0, 9, k.taskKeyPrefix(Q), k.uniqueKeyPrefix(Q), '1']],
    ['listTasks', [k.scheduledKey(Q), k.leaseKey(Q)], ['zset', 0, 9, k.taskKeyPrefix(Q), k.uniqueKeyPrefix(Q), '0']],
    ['queueStats', statsKeys, ['32', ...statsSuffixes]],
    ['queueStats', statsKeys, ['0', ...statsSuffixes]],
    ['readTaskMsgs', [k.pendingKey(Q)], ['list', 0, 10, k.taskKeyPrefix(Q)]],
    ['readTaskMsgs', [k.scheduledKey(Q)], ['zset', 0, 10, k.taskKeyPrefix(Q)]],
    ['searchRange', [k.pendingKey(Q)], ['list', 0, 10, k.taskKeyPrefix(Q), 1_000_000, 2000]],
    ['searchRange', [k.scheduledKey(Q)], ['zset', 0, 10, k.taskKeyPrefix(Q), 1, 2000]],
    ['workerListLeaseExpired', [k.leaseKey(Q)], [now, k.taskKeyPrefix(Q)]],
    ['workerReadAggregationSet', [`${k.groupKey(Q, 'g1')}:set1`, k.allAggregationSets(Q)], [k.taskKeyPrefix(Q)]],
  ];

  it('are exactly the scripts that call no write command, and each has a case here', () => {
    const marked = (Object.keys(LUA_SCRIPTS) as ScriptName[]).filter((n) => LUA_SCRIPTS[n].readonly).sort();
    expect([...new Set(cases.map(([n]) => n))].sort()).toEqual(marked);
    expect(marked).toHaveLength(8);
  });

  it('each runs with EVAL_RO, then EVALSHA_RO, during CLIENT PAUSE WRITE (a write would fail, a plain EVALSHA would wait)', async () => {
    const client = createRedis({ url: server.url, commandTimeoutMs: TIMEOUT_MS });
    try {
      await admin.script('FLUSH');
      const [ro, sha] = [await calls('eval_ro'), await calls('evalsha_ro')];
      await admin.call('CLIENT', 'PAUSE', String(PAUSE_MS), 'WRITE');
      const started = Date.now();
      for (const [name, keys, args] of cases) {
        // First call: NOSCRIPT, then EVAL_RO; second: EVALSHA_RO.
        const first = await runScript(client, name, keys, args);
        const second = await runScript(client, name, keys, args);
        // The first element of searchRange and queueStats is their own elapsed µs.
        const same = (reply: unknown) => (name === 'searchRange' || name === 'queueStats' ? (reply as unknown[]).slice(1) : reply);
        expect([name, same(second)]).toEqual([name, same(first)]);
      }
      expect(Date.now() - started).toBeLessThan(PAUSE_MS - 500);
      await admin.call('CLIENT', 'UNPAUSE');
      const distinct = new Set(cases.map(([n]) => n)).size;
      expect(await calls('eval_ro')).toBe(ro + distinct);
      expect(await calls('evalsha_ro')).toBe(sha + 2 * cases.length);
    } finally {
      await admin.call('CLIENT', 'UNPAUSE');
      client.disconnect();
    }
  });

  it('a script that writes fails under EVAL_RO (what a wrong @readonly mark would meet)', async () => {
    await expect(admin.call('EVAL_RO', LUA_SCRIPTS.enqueue.lua, '2', k.pendingKey(Q), k.taskKey(Q, 'x'), Q, 'msg', 'x', '1')).rejects.toThrow(
      /Write commands are not allowed from read-only scripts/,
    );
    expect(await admin.exists(k.taskKey(Q, 'x'))).toBe(0);
  });
});
