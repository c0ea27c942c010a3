/**
 * The periodic parts of a task server: forwarding due scheduled and retry tasks, deleting
 * expired completed tasks, the heartbeat (records our inspector and Go's read, lease
 * extension, cleanup at shutdown), and queue priorities with paused queues skipped.
 */
import { fromBinary } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { enqueueTask } from '@/lib/asynq/client/enqueue';
import { listServers } from '@/lib/asynq/inspector/servers';
import * as k from '@/lib/asynq/keys';
import { ServerInfoSchema, WorkerInfoSchema } from '@/lib/asynq/proto/gen/asynq_pb';
import { json, newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedZset } from '@/lib/asynq/testutil/seed';
import { ServeMux } from '@/lib/asynq/worker';
import { deleteExpiredCompleted, forwardIfReady } from '@/lib/asynq/worker/rdb/delayed';
import { useTestRedis } from '../../support/test-redis';
import { nowSec, readTask, startTestServer, stateOf, useServers, waitFor } from './helpers';

const DB = 33;
const redis = await useTestRedis(DB);
const servers = useServers();

describe('forwarder', () => {
  it('moves due scheduled and retry tasks to pending with pending_since in ns, grouped ones to their group', async () => {
    const now = nowSec();
    const due = newTaskMessage({ type: 'a' });
    const retry = newTaskMessage({ type: 'b', retried: 1 });
    const future = newTaskMessage({ type: 'c' });
    const grouped = newTaskMessage({ type: 'd', groupKey: 'g1' });
    await seedZset(redis, 'scheduled', due, now - 5);
    await seedZset(redis, 'retry', retry, now);
    await seedZset(redis, 'scheduled', future, now + 60);
    await seedZset(redis, 'retry', grouped, now - 1);
    await redis.hset(k.taskKey('default', grouped.id), 'group', 'g1');
    const at = new Date();
    expect(await forwardIfReady(redis, 'default', at)).toBe(3);
    expect(await redis.lrange(k.pendingKey('default'), 0, -1)).toEqual([retry.id, due.id]);
    const t = await readTask(redis, 'default', due.id);
    expect(t?.state).toBe('pending');
    expect(t?.pendingSince).toBe((BigInt(at.getTime()) * 1_000_000n).toString());
    expect(await stateOf(redis, 'default', future.id)).toBe('scheduled');
    expect(await stateOf(redis, 'default', grouped.id)).toBe('aggregating');
    expect(await redis.zscore(k.groupKey('default', 'g1'), grouped.id)).toBe(String(Math.floor(at.getTime() / 1000)));
    expect(await redis.smembers(k.allGroups('default'))).toEqual(['g1']);
  });

  it('moves more than 100 due tasks by calling the script again', async () => {
    const now = nowSec();
    for (let i = 0; i < 250; i++) await seedZset(redis, 'scheduled', newTaskMessage({ type: 'x' }), now - 1);
    expect(await forwardIfReady(redis, 'default', new Date())).toBe(250);
    expect(await redis.llen(k.pendingKey('default'))).toBe(250);
  });

  it('runs inside the server: a ProcessIn task is processed once due', async () => {
    const seen: string[] = [];
    const info = await enqueueTask(redis, { type: 'later', payload: null }, { processInSeconds: 1 }, new Date());
    expect(info.state).toBe('scheduled');
    servers.push((await startTestServer(redis, new ServeMux().handleFunc('later', (c) => void seen.push(c.taskId)))).server);
    await waitFor('processed', () => seen.length === 1, 5000);
    expect(seen).toEqual([info.id]);
  });
});

describe('janitor', () => {
  it('deletes completed tasks past their retention, in batches, and keeps the others', async () => {
    const now = nowSec();
    const expired = [];
    for (let i = 0; i < 7; i++) {
      const m = newTaskMessage({ type: 'done', retention: 10, completedAt: now - 20 });
      expired.push(m);
      await seedZset(redis, 'completed', m, now - 10);
    }
    const kept = newTaskMessage({ type: 'done', retention: 3600, completedAt: now });
    await seedZset(redis, 'completed', kept, now + 3600);
    expect(await deleteExpiredCompleted(redis, 'default', 3, new Date())).toBe(7);
    expect(await redis.zrange(k.completedKey('default'), 0, -1)).toEqual([kept.id]);
    for (const m of expired) expect(await redis.exists(k.taskKey('default', m.id))).toBe(0);
  });

  it('runs inside the server', async () => {
    const m = newTaskMessage({ type: 'done', retention: 1, completedAt: nowSec() - 5 });
    await seedZset(redis, 'completed', m, nowSec() - 4);
    servers.push((await startTestServer(redis, new ServeMux())).server);
    await waitFor('janitor', async () => (await stateOf(redis, 'default', m.id)) === 'deleted', 5000);
  });
});

describe('heartbeat', () => {
  it('lists the server and its in-flight tasks for the inspector, extends leases, and clears them at shutdown', async () => {
    const mux = new ServeMux().handleFunc('block', (ctx) => new Promise<void>((r) => ctx.signal.addEventListener('abort', () => r())));
    const a = await enqueueTask(redis, { type: 'block', payload: json({ n: 1 }) }, { queue: 'critical' }, new Date());
    const b = await enqueueTask(redis, { type: 'block', payload: json({ n: 2 }) }, { queue: 'low', timeoutSeconds: 120 }, new Date());
    const clock = { now: () => { const t = Date.now(); return new Date(t % 1000 === 0 ? t + 1 : t); } };
    const { server } = await startTestServer(redis, mux, { concurrency: 3, queues: { critical: 6, default: 3, low: 1 }, heartbeatIntervalMs: 1000, clock });
    await waitFor('both active', async () => (await stateOf(redis, 'critical', a.id)) === 'active' && (await stateOf(redis, 'low', b.id)) === 'active');
    const firstLease = Number(await redis.zscore(k.leaseKey('low'), b.id));
    const listed = await waitFor('workers listed', async () => {
      const s = (await listServers(redis, new Date())).find((x) => x.serverId === server.id.serverId);
      return s && s.workers.length === 2 ? s : null;
    });
    expect(listed).toMatchObject({
      host: server.id.host,
      pid: process.pid,
      concurrency: 3,
      queues: { critical: 6, default: 3, low: 1 },
      strictPriority: false,
      status: 'active',
      activeWorkerCount: 2,
    });
    const wb = listed.workers.find((w) => w.taskId === b.id)!;
    expect(wb).toMatchObject({ taskType: 'block', queue: 'low', serverId: server.id.serverId });
    expect(Buffer.from(wb.taskPayload).toString()).toBe('{"n":2}');
    expect(Math.round((wb.deadline!.getTime() - wb.startedAt!.getTime()) / 1000)).toBe(120);
    const serverKey = k.serverInfoKey(server.id.host, process.pid, server.id.serverId);
    expect(await redis.ttl(serverKey)).toBeLessThanOrEqual(2);
    // Go writes timestamppb.New(t) (nanoseconds); ours carry every digit the clock has (its
    // milliseconds), never a time cut to whole seconds. The clock below never lands on .000.
    const rawServer = fromBinary(ServerInfoSchema, (await redis.getBuffer(serverKey))!);
    const rawWorker = fromBinary(WorkerInfoSchema, (await redis.hgetBuffer(k.workersKey(server.id.host, process.pid, server.id.serverId), b.id))!);
    const stored = [[rawServer.startTime!, listed.startedAt!], [rawWorker.startTime!, wb.startedAt!], [rawWorker.deadline!, wb.deadline!]] as const;
    for (const [ts, read] of stored) {
      expect(ts.nanos, 'the sub-second part is kept').toBeGreaterThan(0);
      expect(Number(ts.seconds) * 1000 + ts.nanos / 1e6, 'the inspector reads it back exactly').toBe(read.getTime());
    }
    await waitFor('lease extended', async () => Number(await redis.zscore(k.leaseKey('low'), b.id)) > firstLease, 5000);

    await server.shutdown();
    expect(await redis.exists(serverKey)).toBe(0);
    expect(await redis.zcard(k.ALL_SERVERS)).toBe(0);
    expect(await redis.zcard(k.ALL_WORKERS)).toBe(0);
  });
});

describe('queue priorities', () => {
  async function runOrder(config: { queues: Record<string, number>; strictPriority?: boolean }, perQueue: number, take: number) {
    const order: string[] = [];
    const mux = new ServeMux().handleFunc('p', (c) => void order.push(c.queue));
    for (const q of Object.keys(config.queues)) {
      for (let i = 0; i < perQueue; i++) await enqueueTask(redis, { type: 'p', payload: null }, { queue: q }, new Date());
    }
    servers.push((await startTestServer(redis, mux, { concurrency: 1, ...config })).server);
    await waitFor('processed', () => order.length >= take, 20_000);
    return order.slice(0, take);
  }

  it('strict: a lower queue waits until every higher one is empty', async () => {
    const order = await runOrder({ queues: { low: 1, critical: 6, default: 3 }, strictPriority: true }, 4, 12);
    expect(order).toEqual([...Array<string>(4).fill('critical'), ...Array<string>(4).fill('default'), ...Array<string>(4).fill('low')]);
  });

  it('weighted: the higher queue is served about three times as often, the lower one not starved', async () => {
    const order = await runOrder({ queues: { high: 3, low: 1 } }, 150, 100);
    const high = order.filter((q) => q === 'high').length;
    expect(high).toBeGreaterThan(60);
    expect(high).toBeLessThan(95);
  });

  it('skips a paused queue', async () => {
    await redis.set(k.pausedKey('default'), nowSec());
    const order = await runOrder({ queues: { default: 5, other: 1 } }, 3, 3);
    expect(order).toEqual(['other', 'other', 'other']);
    expect(await redis.llen(k.pendingKey('default'))).toBe(3);
  });
});
