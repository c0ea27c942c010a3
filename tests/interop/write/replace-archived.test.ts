/**
 * "Delete the archived task and enqueue" against the real asynq: from the same archived task
 * (written by Go's client and archived by Go's Inspector), Go's Inspector.DeleteTask followed by
 * Client.Enqueue and our one-step route leave the same Redis, byte for byte (msg included), for
 * an enqueue refused by the task's ID and one refused by the unique lock it holds; and a Go
 * client afterwards meets the lock and the ID exactly as after Go's own two calls.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as k from '@/lib/asynq/keys';
import { openTestRedis } from '../../support/test-redis';
import { ASYNQ } from '../go-harness';
import { asynqGo, dumpRedis, goEnqueue, goInspectOp, type GoEnqueueRequest } from './go';
import { diffDumps } from './redis-diff';
import { openApi, type Api } from './routes';

/** Our route's database. */
const DB = 114;
/** Go's database, where Inspector.DeleteTask + Client.Enqueue run. */
const DB_GO = 115;

asynqGo.requireGo('replace-archived.test.ts');

const b64 = (s: string) => Buffer.from(s).toString('base64');
const Q = 'rq';

interface Case {
  name: string;
  /** The task that ends up archived, as Go's client enqueues it. */
  archived: GoEnqueueRequest & { options: { taskId: string } };
  /** The new enqueue, on each side. */
  go: GoEnqueueRequest;
  ours: Record<string, unknown> & { options: Record<string, unknown> };
  /** What refuses a plain enqueue of the new task. */
  refusal: 'idConflict' | 'duplicate';
}

const at = Math.floor(Date.now() / 1000) + 3600;
const cases: Case[] = [
  {
    name: 'its ID (ErrTaskIDConflict), enqueued pending',
    archived: { type: 'ok:old', payloadBase64: b64('v1'), options: { taskId: 'same-id' } },
    go: { type: 'ok:new', payloadBase64: b64('v2'), options: { taskId: 'same-id', maxRetry: 3 } },
    ours: { type: 'ok:new', payload: 'v2', options: { taskId: 'same-id', maxRetry: 3 } },
    refusal: 'idConflict',
  },
  {
    name: 'its ID and its own unique lock, enqueued unique',
    archived: { type: 'ok:u', payloadBase64: b64('p'), options: { taskId: 'same-id', uniqueSeconds: 300 } },
    go: { type: 'ok:u', payloadBase64: b64('p'), options: { taskId: 'same-id', uniqueSeconds: 120 } },
    ours: { type: 'ok:u', payload: 'p', options: { taskId: 'same-id', uniqueTtlSeconds: 120 } },
    refusal: 'duplicate',
  },
  {
    name: 'the unique lock it holds (ErrDuplicateTask), under a new ID',
    archived: { type: 'ok:u', payloadBase64: b64('p'), options: { taskId: 'holder', uniqueSeconds: 300 } },
    go: { type: 'ok:u', payloadBase64: b64('p'), options: { taskId: 'next', uniqueSeconds: 120 } },
    ours: { type: 'ok:u', payload: 'p', options: { taskId: 'next', uniqueTtlSeconds: 120 } },
    refusal: 'duplicate',
  },
  {
    name: 'the unique lock it holds, scheduled',
    archived: { type: 'ok:u', payloadBase64: b64('p'), options: { taskId: 'holder', uniqueSeconds: 300 } },
    go: { type: 'ok:u', payloadBase64: b64('p'), options: { taskId: 'next', uniqueSeconds: 120, processAtUnix: at } },
    ours: { type: 'ok:u', payload: 'p', options: { taskId: 'next', uniqueTtlSeconds: 120, processAt: new Date(at * 1000).toISOString() } },
    refusal: 'duplicate',
  },
  {
    name: 'its ID, added to a group with a unique lock',
    archived: { type: 'ok:g', payloadBase64: b64('x'), options: { taskId: 'same-id' } },
    go: { type: 'ok:g', payloadBase64: b64('x'), options: { taskId: 'same-id', group: 'g', uniqueSeconds: 60 } },
    ours: { type: 'ok:g', payload: 'x', options: { taskId: 'same-id', group: 'g', uniqueTtlSeconds: 60 } },
    refusal: 'idConflict',
  },
];

describe.skipIf(asynqGo.noGo)(`delete the archived task and enqueue, against asynq ${ASYNQ.version}`, () => {
  let api: Api;
  let redis: Redis;
  let goRedis: Redis;

  beforeAll(async () => {
    await asynqGo.bin();
    redis = await openTestRedis(DB);
    goRedis = await openTestRedis(DB_GO);
    api = await openApi(DB);
  });

  beforeEach(async () => {
    await redis.flushdb();
    await goRedis.flushdb();
  });

  afterAll(() => {
    redis?.disconnect();
    goRedis?.disconnect();
    api?.serverRedis().disconnect();
  });

  it.each(cases.map((c) => [c.name, c] as const))('an archived task in the way by %s', async (_name, c) => {
    const fromSec = Math.floor(Date.now() / 1000);
    const archivedId = c.archived.options.taskId;
    for (const db of [DB_GO, DB]) {
      expect((await goEnqueue(db, { ...c.archived, queue: Q })).ok).toBe(true);
      expect(await goInspectOp(db, { op: 'archiveTask', queue: Q, id: archivedId })).toEqual({ ok: true, count: 1 });
    }
    // Go's client is refused as the operator was.
    expect(await goEnqueue(DB, { ...c.go, queue: Q }), 'the refusal the action answers').toMatchObject({ ok: false, [c.refusal]: true });

    expect(await goInspectOp(DB_GO, { op: 'deleteTask', queue: Q, id: archivedId })).toEqual({ ok: true, count: 1 });
    const go = await goEnqueue(DB_GO, { ...c.go, queue: Q });
    const ours = await api.enqueueReplacingArchived(Q, { ...c.ours, archivedId });
    const window = { fromSec, toSec: Math.ceil(Date.now() / 1000) };
    expect(go.ok, `Go enqueue after DeleteTask: ${JSON.stringify(go)}`).toBe(true);
    expect(ours.status, JSON.stringify(ours.body)).toBe(201);
    const [goDump, ourDump] = await Promise.all([dumpRedis(DB_GO), dumpRedis(DB)]);
    expect(diffDumps(goDump, ourDump, window), `Redis after (${c.name}): DeleteTask + Enqueue vs our one step`).toEqual([]);

    // The dump says only that a TTL is set: the lock must be the new one's, not the archived task's.
    const lock = k.uniqueKey(Q, c.go.type, Buffer.from(c.go.payloadBase64 ?? '', 'base64'));
    const [goTtl, ourTtl] = await Promise.all([goRedis.ttl(lock), redis.ttl(lock)]);
    expect(Math.abs(goTtl - ourTtl), `lock TTL: asynq ${goTtl} s, ours ${ourTtl} s`).toBeLessThanOrEqual(2);

    // A Go client now meets the same refusal on both databases.
    const again = { ...c.go, queue: Q };
    const [goAgain, ourAgain] = await Promise.all([goEnqueue(DB_GO, again), goEnqueue(DB, again)]);
    expect(ourAgain).toEqual(goAgain);
  });

  it('a Go Inspector deleting the archived task first leaves our action a clear 404, and nothing written', async () => {
    expect((await goEnqueue(DB, { queue: Q, type: 'ok:u', payloadBase64: b64('p'), options: { taskId: 'holder', uniqueSeconds: 300 } })).ok).toBe(true);
    expect(await goInspectOp(DB, { op: 'archiveTask', queue: Q, id: 'holder' })).toEqual({ ok: true, count: 1 });
    expect(await goInspectOp(DB, { op: 'deleteTask', queue: Q, id: 'holder' })).toEqual({ ok: true, count: 1 });
    const before = await dumpRedis(DB);
    const res = await api.enqueueReplacingArchived(Q, { type: 'ok:u', payload: 'p', options: { uniqueTtlSeconds: 120 }, archivedId: 'holder' });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'task_not_found', id: 'holder' });
    expect(await dumpRedis(DB)).toEqual(before);
    expect(await redis.exists(k.uniqueKey(Q, 'ok:u', Buffer.from('p')))).toBe(0);
  });
});
