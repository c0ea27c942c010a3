/**
 * What the end-to-end suite needs beyond the demo data: hostile and huge payloads, awkward
 * queue names, live servers with workers, a scheduler with history, and queues the action
 * specs may change freely. Written the way asynq leaves them in Redis.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { Redis } from 'ioredis';
import { encodeServerInfo, encodeWorkerInfo } from '../../../lib/asynq/codec';
import * as k from '../../../lib/asynq/keys';
import { SchedulerEnqueueEventSchema, SchedulerEntrySchema } from '../../../lib/asynq/proto/gen/asynq_pb';
import { json, newTaskMessage } from '../../../lib/asynq/testutil/factories';
import { seedLock, seedPending, seedZset } from '../../../lib/asynq/testutil/seed';
import { seedDisplay } from './seed-display';
import { seedFinder, type FinderSeed } from './seed-finder';
import { seedTriage, type TriageSeed } from './seed-triage';
import { seedUniqueness, type UniquenessSeed } from './seed-uniqueness';

export const XSS = '<img src=x onerror=alert(1)>';
export const SAFETY_QUEUE = 'e2e-safety';
export const ACTIONS_QUEUE = 'e2e-actions';
export const PAUSE_QUEUE = 'e2e-pause';
export const DELETE_QUEUE = 'e2e-delete-me';
/** Each must round-trip through the URL exactly: %25 would show double decoding, / a split. */
export const ODD_QUEUES = ['a/b', 'очередь-日本', '100%25 done', 'work:main'];

export interface Seeded {
  xssTaskId: string;
  /** A task whose unique lock is held by another task (`lockHolderId`). */
  lockedOutId: string;
  lockHolderId: string;
  bigTaskId: string;
  bigPayloadBytes: number;
  scheduledIds: string[];
  archivedId: string;
  /** Issue 6: a lock per finding, exact and near duplicates (seed-uniqueness.ts). */
  uniqueness: UniquenessSeed;
  /** Issues 10 and 8: tasks to search for and act on, and one to edit (seed-finder.ts). */
  finder: FinderSeed;
  /** Issue 7: a type no worker handles, and the routing explainer's types (seed-triage.ts). */
  triage: TriageSeed;
}

const SERVER = { host: 'worker-1.prod', pid: 4242, serverId: 'b7c1a0f4-e2e0-4c55-9d5d-4b7c2f1a9e01' };

export async function seedExtra(redis: Redis): Promise<Seeded> {
  const now = Math.floor(Date.now() / 1000);

  const xss = newTaskMessage({ type: 'xss:probe', queue: SAFETY_QUEUE, payload: Buffer.from(XSS), errorMsg: '<script>alert(2)</script>', retried: 1 });
  await seedZset(redis, 'retry', xss, now + 300);
  await seedPending(redis, newTaskMessage({ type: '<svg onload=alert(3)>', queue: SAFETY_QUEUE, payload: json({ html: XSS }) }));
  const bigPayloadBytes = 10 * 1024 * 1024;
  const big = newTaskMessage({ type: 'import:huge', queue: SAFETY_QUEUE, payload: Buffer.from(`{"rows":"${'x'.repeat(bigPayloadBytes - 11)}"}`) });
  await seedPending(redis, big);

  // Rows the inspector cannot read must still be listed, flagged: a missing hash, corrupt bytes.
  await redis.lpush(k.pendingKey(SAFETY_QUEUE), 'ghost-task');
  await redis.hset(k.taskKey(SAFETY_QUEUE, 'corrupt-task'), 'msg', Buffer.from([0xff, 0xff, 0xff, 0x01]), 'state', 'pending');
  await redis.lpush(k.pendingKey(SAFETY_QUEUE), 'corrupt-task');

  const lockKey = k.uniqueKey(SAFETY_QUEUE, 'sync:account', json({ account: 7 }));
  const holder = newTaskMessage({ type: 'sync:account', queue: SAFETY_QUEUE, payload: json({ account: 7 }), uniqueKey: lockKey });
  const lockedOut = newTaskMessage({ type: 'sync:account', queue: SAFETY_QUEUE, payload: json({ account: 7 }), uniqueKey: lockKey });
  await seedZset(redis, 'scheduled', holder, now + 900);
  await seedZset(redis, 'archived', lockedOut, now - 900);
  await seedLock(redis, lockKey, holder.id, 1800);

  for (const q of ODD_QUEUES) await seedPending(redis, newTaskMessage({ type: 'odd:name', queue: q, payload: json({ queue: q }) }));

  for (let i = 0; i < 4; i++) await seedPending(redis, newTaskMessage({ type: 'action:pending', queue: ACTIONS_QUEUE, payload: json({ i }) }));
  for (let i = 0; i < 5; i++) {
    await seedZset(redis, 'retry', newTaskMessage({ type: 'action:retry', queue: ACTIONS_QUEUE, payload: json({ i }), retried: 1, errorMsg: 'boom' }), now + 600);
  }
  const scheduledIds: string[] = [];
  for (let i = 0; i < 12; i++) {
    const m = newTaskMessage({ type: 'action:scheduled', queue: ACTIONS_QUEUE, payload: json({ i }) });
    scheduledIds.push(m.id);
    await seedZset(redis, 'scheduled', m, now + 3600 + i);
  }
  const archived = newTaskMessage({ type: 'action:archived', queue: ACTIONS_QUEUE, payload: json({ dead: true }), errorMsg: 'gave up' });
  await seedZset(redis, 'archived', archived, now - 60);
  await seedPending(redis, newTaskMessage({ type: 'pause:me', queue: PAUSE_QUEUE }));
  for (let i = 0; i < 2; i++) await seedPending(redis, newTaskMessage({ type: 'delete:me', queue: DELETE_QUEUE }));

  await seedServer(redis, now);
  await seedScheduler(redis, now);
  const uniqueness = await seedUniqueness(redis);
  const finder = await seedFinder(redis);
  const triage = await seedTriage(redis);
  await seedDisplay(redis);
  return { triage, finder, xssTaskId: xss.id, lockedOutId: lockedOut.id, lockHolderId: holder.id, bigTaskId: big.id, bigPayloadBytes, scheduledIds, archivedId: archived.id, uniqueness };
}

/** A live server whose workers run the demo's active tasks in "critical". */
async function seedServer(redis: Redis, now: number) {
  const { host, pid, serverId } = SERVER;
  const active = await redis.lrange(k.activeKey('critical'), 0, -1);
  const started = new Date((now - 3 * 3600) * 1000);
  await redis.set(k.serverInfoKey(host, pid, serverId), Buffer.from(encodeServerInfo({
    host, pid, serverId, concurrency: 10, queues: { critical: 6, default: 3, webhooks: 1 }, strictPriority: false,
    status: 'active', startedAt: started, activeWorkerCount: active.length,
  })));
  await redis.zadd(k.ALL_SERVERS, now + 3600, k.serverInfoKey(host, pid, serverId));
  for (const [i, taskId] of active.entries()) {
    await redis.hset(k.workersKey(host, pid, serverId), taskId, Buffer.from(encodeWorkerInfo({
      host, pid, serverId, taskId, taskType: 'image:resize', taskPayload: json({ imageId: i }), queue: 'critical',
      startedAt: new Date((now - 20 * (i + 1)) * 1000), deadline: new Date((now + 1800) * 1000),
    })));
  }
  await redis.zadd(k.ALL_WORKERS, now + 3600, k.workersKey(host, pid, serverId));
  const idle = { host: 'worker-2.prod', pid: 977, serverId: 'e0b5a3c2-e2e1-4f0c-8a41-1d2c3b4a5f60' };
  await redis.set(k.serverInfoKey(idle.host, idle.pid, idle.serverId), Buffer.from(encodeServerInfo({
    ...idle, concurrency: 4, queues: { webhooks: 1 }, strictPriority: true, status: 'active',
    startedAt: new Date((now - 86_400) * 1000), activeWorkerCount: 0,
  })));
  await redis.zadd(k.ALL_SERVERS, now + 3600, k.serverInfoKey(idle.host, idle.pid, idle.serverId));
}

/** A scheduler with two entries; the nightly one has a history of enqueues. */
async function seedScheduler(redis: Redis, now: number) {
  const schedulerId = 'scheduler-e2e';
  const ts = (s: number) => timestampFromDate(new Date(s * 1000));
  const entries = [
    { id: 'entry-nightly-report', spec: '0 3 * * *', taskType: 'report:daily', taskPayload: json({ kind: 'nightly' }), enqueueOptions: ['Queue("default")', 'MaxRetry(3)'], nextEnqueueTime: ts(now + 7200), prevEnqueueTime: ts(now - 79_200) },
    { id: 'entry-every-5m', spec: '@every 5m', taskType: 'webhook:ping', taskPayload: new Uint8Array(), enqueueOptions: ['Queue("webhooks")'], nextEnqueueTime: ts(now + 120), prevEnqueueTime: ts(now - 180) },
  ];
  for (const e of entries) await redis.rpush(k.schedulerEntriesKey(schedulerId), Buffer.from(toBinary(SchedulerEntrySchema, create(SchedulerEntrySchema, e))));
  await redis.zadd(k.ALL_SCHEDULERS, now + 3600, k.schedulerEntriesKey(schedulerId));
  const reports = await redis.zrange(k.archivedKey('default'), 0, 2);
  for (const [i, taskId] of reports.entries()) {
    const at = now - 86_400 * (i + 1);
    const ev = toBinary(SchedulerEnqueueEventSchema, create(SchedulerEnqueueEventSchema, { taskId, enqueueTime: ts(at) }));
    await redis.zadd(k.schedulerHistoryKey('entry-nightly-report'), at, Buffer.from(ev));
  }
}
