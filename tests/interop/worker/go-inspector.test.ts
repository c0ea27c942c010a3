/**
 * Go's Inspector (through tests/go `dump`) must list our server, with the fields asynqmon
 * shows, and its in-flight tasks as active workers — and forget it after a clean shutdown.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Inspector, Scheduler, Server, ServeMux } from '@asynqlens/asynq';
import { BinaryReader } from '@bufbuild/protobuf/wire';
import { PUBLISHED_PATTERNS_FIELD } from '@asynqlens/asynq';
import { serverInfoKey, taskKey } from '@asynqlens/asynq/keys';
import { openTestRedis } from '../../support/test-redis';
import { waitFor } from '../../support/wait-for';
import type { GoDump } from '../go-dump';
import { goHarness, redisArgs } from '../go-harness';

const DB = 43;
/** The system clock, but never on a whole second, so a time cut to seconds would show. */
const clock = { now: () => { const t = Date.now(); return new Date(t % 1000 === 0 ? t + 1 : t); } };
/** A time as Go's dump gives it (Unix seconds, nanoseconds within the second) → milliseconds. */
const goMs = (seconds: number, nanos: number) => seconds * 1000 + nanos / 1e6;
const asynqGo = goHarness('worker');
asynqGo.requireGo('Go Inspector lists our server');

describe.skipIf(asynqGo.noGo)('Go Inspector sees our server', () => {
  let redis: Redis;
  let server: Server;
  let scheduler: Scheduler;
  let entryId = '';
  const stateOf = async (r: Redis, q: string, id: string) => (await r.hget(taskKey(q, id), 'state')) ?? 'deleted';
  const taskIds: string[] = [];

  beforeAll(async () => {
    redis = await openTestRedis(DB);
    const client = new Client(redis);
    const mux = new ServeMux().handleFunc('image:resize', (ctx) => new Promise<void>((r) => ctx.signal.addEventListener('abort', () => r())));
    taskIds.push((await client.enqueue({ type: 'image:resize', payload: Buffer.from('{"id":1}') }, { queue: 'critical', timeoutSeconds: 600 })).id);
    taskIds.push((await client.enqueue({ type: 'image:resize', payload: Buffer.from('{"id":2}') }, { queue: 'low' })).id);
    server = new Server(redis, {
      concurrency: 5,
      queues: { critical: 6, default: 3, low: 1 },
      strictPriority: true,
      heartbeatIntervalMs: 1000,
      taskCheckIntervalMs: 100,
      shutdownTimeoutMs: 500,
      clock,
      logger: { info: () => {}, warn: () => {}, error: () => {} },
    });
    await server.start(mux);
    scheduler = new Scheduler(redis, { heartbeatIntervalMs: 1000, clock });
    entryId = scheduler.register({ everySeconds: 1, task: { type: 'metrics:rollup', payload: Buffer.from('{}') }, options: { queue: 'default', maxRetry: 2, timeoutSeconds: 90 } });
    scheduler.start();
    await waitFor('both active', async () => (await stateOf(redis, 'critical', taskIds[0]!)) === 'active' && (await stateOf(redis, 'low', taskIds[1]!)) === 'active');
  }, 60_000);

  afterAll(async () => {
    await scheduler?.shutdown();
    await server?.shutdown();
    await redis?.quit();
  });

  it('lists the server with its configuration and both active workers', async () => {
    const dump = await waitFor('workers in Go dump', async () => {
      const d = await asynqGo.json<GoDump>('dump', redisArgs(DB));
      const s = d.servers.find((x) => x.id === server.id.serverId);
      return s && s.workers.length === 2 ? s : null;
    }, 15_000);
    expect(dump).toMatchObject({
      host: server.id.host,
      pid: process.pid,
      concurrency: 5,
      queues: { critical: 6, default: 3, low: 1 },
      strictPriority: true,
      status: 'active',
    });
    expect(Math.abs(dump.startedAt - Date.now() / 1000)).toBeLessThan(60);
    const workers = [...dump.workers].sort((a, b) => a.queue.localeCompare(b.queue));
    expect(workers.map((w) => [w.taskId, w.taskType, w.queue, Buffer.from(w.payloadBase64 ?? '', 'base64').toString()])).toEqual([
      [taskIds[0], 'image:resize', 'critical', '{"id":1}'],
      [taskIds[1], 'image:resize', 'low', '{"id":2}'],
    ]);
    const critical = workers[0]!;
    expect(critical.deadline - critical.startedAt).toBeGreaterThanOrEqual(599);
    expect(critical.deadline - critical.startedAt).toBeLessThanOrEqual(600);
    // Go reads our start times and deadlines with their sub-second part, as our inspector does.
    const ours = (await new Inspector(redis).servers()).find((x) => x.serverId === server.id.serverId)!;
    // The record Go just read publishes the mux's patterns as a field Go's schema lacks.
    expect(ours.patterns).toEqual(['image:resize']);
    const raw = (await redis.getBuffer(serverInfoKey(server.id.host, server.id.pid, server.id.serverId)))!;
    const fields: number[] = [];
    for (const r = new BinaryReader(raw); r.pos < r.len; ) {
      const [no, wireType] = r.tag();
      fields.push(no);
      r.skip(wireType, no);
    }
    // asynq's fields (1–9, defaults omitted), then ours.
    expect(fields.filter((n) => n > 9)).toEqual([PUBLISHED_PATTERNS_FIELD]);
    expect(fields.at(-1)).toBe(PUBLISHED_PATTERNS_FIELD);
    expect(dump.startedAtNanos, 'sub-second part of the start time').toBeGreaterThan(0);
    expect(goMs(dump.startedAt, dump.startedAtNanos)).toBe(ours.startedAt!.getTime());
    for (const w of workers) {
      const o = ours.workers.find((x) => x.taskId === w.taskId)!;
      expect(w.startedAtNanos * w.deadlineNanos, 'sub-second parts of a worker').toBeGreaterThan(0);
      expect([goMs(w.startedAt, w.startedAtNanos), goMs(w.deadline, w.deadlineNanos)]).toEqual([o.startedAt!.getTime(), o.deadline!.getTime()]);
    }
    console.log(`Go Inspector: server ${dump.id} status=${dump.status} workers=${dump.workers.map((w) => `${w.queue}/${w.taskId}`).join(', ')}`);
  });

  it('shows the tasks as active (not orphaned) in Go’s task listing', async () => {
    const d = await asynqGo.json<GoDump>('dump', redisArgs(DB));
    expect(d.tasks.critical?.active.map((t) => [t.id, t.isOrphaned])).toEqual([[taskIds[0], false]]);
  });

  it('lists our scheduler entry, with its options parsed by Go, and its enqueue events', async () => {
    const d = await waitFor('scheduler events in Go dump', async () => {
      const dump = await asynqGo.json<GoDump>('dump', redisArgs(DB));
      return (dump.schedulerEvents[entryId]?.length ?? 0) >= 2 ? dump : null;
    }, 15_000);
    const entry = d.schedulerEntries.find((e) => e.id === entryId);
    expect(entry).toMatchObject({ spec: '@every 1s', taskType: 'metrics:rollup', options: ['MaxRetry(2)', 'Queue("default")', 'Timeout(1m30s)'] });
    expect(Buffer.from(entry!.payloadBase64 ?? '', 'base64').toString()).toBe('{}');
    expect(entry!.prevEnqueueAt).toBeGreaterThan(0);
    const events = d.schedulerEvents[entryId]!;
    expect(events[0]!.enqueuedAt).toBeGreaterThanOrEqual(events[1]!.enqueuedAt); // newest first
    const ours = await new Inspector(redis).listSchedulerEnqueueEvents(entryId, { page: 1, size: 1000 });
    const oursById = new Map(ours.events.map((e) => [e.taskId, e.enqueuedAt!.getTime()]));
    for (const e of events) {
      expect(e.enqueuedAtNanos, 'sub-second part of an enqueue time').toBeGreaterThan(0);
      // An event Go saw may have been trimmed since, never changed.
      if (oursById.has(e.taskId)) expect(goMs(e.enqueuedAt, e.enqueuedAtNanos)).toBe(oursById.get(e.taskId));
    }
    // Our server also works the default queue, so an enqueued tick may already be processed
    // (and deleted) by the time Go reads it; every tick Go still sees must be the entry's type.
    const seen = events.map((e) => d.taskInfo.default?.[e.taskId]).filter((t) => t !== undefined);
    for (const t of seen) expect(t.type).toBe('metrics:rollup');
  });

  it('drops the server after shutdown', async () => {
    await server.shutdown();
    const d = await asynqGo.json<GoDump>('dump', redisArgs(DB));
    expect(d.servers.find((x) => x.id === server.id.serverId)).toBeUndefined();
    // Requeued by the shutdown (the handlers only return on abort).
    expect(await stateOf(redis, 'critical', taskIds[0]!)).toBe('pending');
  });
});
