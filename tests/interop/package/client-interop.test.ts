/**
 * The package's public API (Client, Server, ServeMux, Inspector, the option functions and the
 * sentinel errors) against real Go asynq v0.26, with nothing but `@asynqlens/asynq` imported:
 * run by the `package` project against the installed tarball. Our Client's tasks processed by
 * Go's server (retries, archive, retention, aggregation by Go's aggregator), Unique and TaskID
 * races between our Client and Go's, Go's group tasks aggregated by our server, cancellation
 * in both directions, and each side's Inspector acting on the other's tasks.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  ErrDuplicateTask,
  ErrTaskIDConflict,
  Group,
  Inspector,
  MaxRetry,
  Queue,
  Retention,
  ServeMux,
  Server,
  TaskID,
  Unique,
  errorIs,
  type Task,
} from '@asynqlens/asynq';
import { openTestRedis } from '../../support/test-redis';
import { waitFor } from '../../support/wait-for';
import { goHarness, redisArgs } from '../go-harness';
import { goEnqueueRace, goInspectOp, goProcess, type Invocation } from '../write/go';

const DB = 45;
const GROUP_DB = 46;
const Q = 'pkg';
const asynqGo = goHarness('package');
asynqGo.requireGo('package client interop');

const quiet = { info: () => {}, warn: () => {}, error: (m: string) => console.error(`ts server: ${m}`) };
const untilAborted = (signal: AbortSignal) => new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));

describe.skipIf(asynqGo.noGo)('@asynqlens/asynq with Go asynq on one Redis', () => {
  let redis: Redis;
  let client: Client;
  let inspector: Inspector;

  beforeAll(async () => {
    await asynqGo.bin();
    redis = await openTestRedis(DB);
    client = new Client(redis);
    inspector = new Inspector(redis);
  });

  afterAll(async () => {
    await redis?.quit();
  });

  describe('our Client → Go server', () => {
    let calls: Invocation[] = [];
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      const payload = (s: string) => Buffer.from(s);
      ids.retention = (await client.enqueue({ type: 'result:keep', payload: payload('hello') }, Queue(Q), Retention(600))).id;
      ids.retry = (await client.enqueue({ type: 'fail:twice', payload: payload('m') }, Queue(Q), MaxRetry(1))).id;
      ids.unique = (await client.enqueue({ type: 'ok:unique', payload: payload('u') }, Queue(Q), Unique(300))).id;
      for (const p of ['a', 'b', 'c']) ids[`group-${p}`] = (await client.enqueue({ type: 'ok:grouped', payload: payload(p) }, Queue(Q), Group('g'))).id;
      calls = await goProcess(DB, { queues: [Q], seconds: 5, groupGraceSeconds: 1 });
    }, 60_000);

    it('a task with Retention completes with the Go handler\'s result, kept', async () => {
      const t = await inspector.getTaskInfo(Q, ids.retention!);
      expect([t.state, Buffer.from(t.result ?? []).toString(), t.message?.retention]).toEqual(['completed', 'done:hello', 600]);
    });

    it('MaxRetry(1): retried once by Go, then archived with the handler\'s error', async () => {
      expect(calls.filter((c) => c.id === ids.retry).map((c) => c.retryCount)).toEqual([0, 1]);
      const t = await inspector.getTaskInfo(Q, ids.retry!);
      expect([t.state, t.message?.retried, t.message?.errorMsg]).toEqual(['archived', 1, 'fail: fail:twice']);
    });

    it('Unique: processed, and Go releases our lock', async () => {
      expect(calls.filter((c) => c.id === ids.unique)).toHaveLength(1);
      expect(await redis.keys('asynq:{pkg}:unique:*')).toEqual([]);
    });

    it('Group: Go\'s aggregator turns our three grouped tasks into one', () => {
      const aggregated = calls.filter((c) => c.type === 'aggregated');
      expect(aggregated).toHaveLength(1);
      expect((JSON.parse(Buffer.from(aggregated[0]!.payloadBase64, 'base64').toString()) as string[]).sort()).toEqual(['a', 'b', 'c']);
      expect(calls.filter((c) => c.type === 'ok:grouped')).toEqual([]);
    });
  });

  describe.each([
    ['Unique', { uniqueSeconds: 60 }, [Unique(60)], ErrDuplicateTask, 'duplicate'],
    ['TaskID', { taskId: 'the-one' }, [TaskID('the-one')], ErrTaskIDConflict, 'idConflict'],
  ] as const)('a %s race: 25 enqueues from our Client and 25 from Go\'s at one instant', (name, goOpts, ourOpts, sentinel, goRefusal) => {
    it('creates exactly one task; every other enqueue on either side is refused with the sentinel error', async () => {
      const queue = `race-${name}`;
      const startAt = Date.now() + 1500;
      const go = goEnqueueRace(DB, { count: 25, queue, type: 'ok:race', payload: Buffer.from('the one task'), startAtUnixMs: startAt, ...goOpts });
      await new Promise((r) => setTimeout(r, Math.max(0, startAt - Date.now())));
      const ours = await Promise.allSettled(Array.from({ length: 25 }, () => client.enqueue({ type: 'ok:race', payload: Buffer.from('the one task') }, Queue(queue), ...ourOpts)));
      const goResult = await go;
      const oursCreated = ours.filter((r) => r.status === 'fulfilled').length;
      const oursRefused = ours.filter((r) => r.status === 'rejected' && errorIs(r.reason, sentinel)).length;
      console.log(`[package race] ${name}: ours ${oursCreated} created, ${oursRefused} refused; Go ${goResult.ok} created, ${goResult[goRefusal]} refused`);
      expect({ created: oursCreated + goResult.ok, oursRefused, goRefused: goResult[goRefusal], goOther: goResult.other }).toEqual({ created: 1, oursRefused: 25 - oursCreated, goRefused: 25 - goResult.ok, goOther: [] });
      expect(await redis.llen(`asynq:{${queue}}:pending`)).toBe(1);
    }, 30_000);
  });

  it('our server aggregates the group tasks Go\'s client enqueued', async () => {
    const groupRedis = await openTestRedis(GROUP_DB);
    const reqs = ['x', 'y', 'z'].map((p) => ({ queue: 'agg', type: 'ok:member', payloadBase64: Buffer.from(p).toString('base64'), options: { group: 'batch' } }));
    expect((await asynqGo.json<{ ok: boolean }[]>('enqueue-many', redisArgs(GROUP_DB), { stdin: reqs })).every((r) => r.ok)).toBe(true);
    const handled: Task[] = [];
    const server = new Server(groupRedis, {
      queues: { agg: 1 },
      groupGracePeriodMs: 1000,
      taskCheckIntervalMs: 100,
      logger: quiet,
      groupAggregator: (group, tasks) => ({ type: 'ok:aggregated', payload: Buffer.from(`${group}:${tasks.map((t) => Buffer.from(t.payload).toString()).sort().join('')}`) }),
    });
    await server.start(new ServeMux().handleFunc('ok:', (_c, t) => void handled.push(t)));
    try {
      await waitFor('the aggregated task', () => handled.length > 0, 15_000);
    } finally {
      await server.shutdown();
      await groupRedis.quit();
    }
    expect(handled.map((t) => [t.type, Buffer.from(t.payload).toString()])).toEqual([['ok:aggregated', 'batch:xyz']]);
  }, 30_000);

  it('Go\'s Inspector cancels a task our server runs, and ours cancels one Go\'s server runs', async () => {
    const ourTask = await client.enqueue({ type: 'slow:ours', payload: null }, Queue('cancel-ts'), MaxRetry(0));
    const goTask = await client.enqueue({ type: 'slow:go', payload: null }, Queue('cancel-go'), MaxRetry(0));
    const server = new Server(redis, { queues: { 'cancel-ts': 1 }, taskCheckIntervalMs: 100, logger: quiet });
    await server.start(new ServeMux().handleFunc('slow:', (c) => untilAborted(c.signal)));
    const goServe = await asynqGo.start('serve', [...redisArgs(DB), '--queues', 'cancel-go:1']);
    const state = async (q: string, id: string) => (await inspector.getTaskInfo(q, id)).state;
    try {
      await waitFor('both running', async () => (await state('cancel-ts', ourTask.id)) === 'active' && (await state('cancel-go', goTask.id)) === 'active', 15_000);
      expect(await goInspectOp(DB, { op: 'cancelProcessing', queue: 'cancel-ts', id: ourTask.id })).toEqual({ ok: true, count: 1 });
      await inspector.cancelProcessing(goTask.id);
      await waitFor('both archived', async () => (await state('cancel-ts', ourTask.id)) === 'archived' && (await state('cancel-go', goTask.id)) === 'archived', 15_000);
    } finally {
      await Promise.all([server.shutdown(), goServe.stop()]);
    }
    for (const [q, id] of [['cancel-ts', ourTask.id], ['cancel-go', goTask.id]] as const) {
      expect((await inspector.getTaskInfo(q, id)).message?.errorMsg).toBe('context canceled');
    }
  }, 40_000);

  it('each side\'s Inspector archives and runs the other side\'s tasks', async () => {
    const ours = await client.enqueue({ type: 'ok:later', payload: Buffer.from('1') }, Queue('arch'), TaskID('ours'));
    const [theirs] = await asynqGo.json<{ ok: boolean }[]>('enqueue-many', redisArgs(DB), { stdin: [{ queue: 'arch', type: 'ok:later', payloadBase64: 'Mg==', options: { taskId: 'theirs' } }] });
    expect(theirs?.ok).toBe(true);
    expect(await goInspectOp(DB, { op: 'archiveTask', queue: 'arch', id: ours.id })).toEqual({ ok: true, count: 1 });
    await inspector.archiveTask('arch', 'theirs');
    expect((await inspector.listArchivedTasks('arch')).map((t) => t.id).sort()).toEqual(['ours', 'theirs']);
    expect(await goInspectOp(DB, { op: 'runTask', queue: 'arch', id: 'theirs' })).toEqual({ ok: true, count: 1 });
    await inspector.runTask('arch', 'ours');
    expect((await inspector.listPendingTasks('arch')).map((t) => t.id).sort()).toEqual(['ours', 'theirs']);
    await expect(inspector.archiveTask('arch', 'nobody')).rejects.toThrow('task not found');
  });
});
