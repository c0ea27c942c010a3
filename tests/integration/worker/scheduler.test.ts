/**
 * The periodic scheduler: enqueues each entry on its interval and registers itself like
 * asynq's Scheduler, so the inspector lists its entries and their enqueue history.
 */
import type { Redis } from 'ioredis';
import { fromBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSchedulerEntries, listSchedulerEvents } from '@/lib/asynq/inspector/schedulers';
import * as k from '@/lib/asynq/keys';
import { SchedulerEnqueueEventSchema } from '@/lib/asynq/proto/gen/asynq_pb';
import { goDuration, optionStrings } from '@/lib/asynq/worker/scheduler/option-strings';
import { Scheduler } from '@/lib/asynq/worker/scheduler/scheduler';
import { openTestRedis } from '../../support/test-redis';
import { stateOf, waitFor } from './helpers';

const DB = 35;
let redis: Redis;

beforeAll(async () => {
  redis = await openTestRedis(DB);
});
afterAll(async () => {
  await redis.quit();
});

describe('Go option and duration strings', () => {
  it.each([
    [0, '0s'],
    [30, '30s'],
    [90, '1m30s'],
    [3600, '1h0m0s'],
    [3661, '1h1m1s'],
  ])('%i s → %s', (s, text) => expect(goDuration(s)).toBe(text));

  it('lists options in asynq’s String() form', () => {
    expect(optionStrings({ queue: 'low', maxRetry: 3, timeoutSeconds: 90, uniqueTtlSeconds: 60, retentionSeconds: 3600 })).toEqual([
      'MaxRetry(3)',
      'Queue("low")',
      'Timeout(1m30s)',
      'Unique(1m0s)',
      'Retention(1h0m0s)',
    ]);
  });
});

describe('Scheduler', () => {
  it('enqueues on its interval, heartbeats its entries, records history and cleans up', async () => {
    const clock = { now: () => { const t = Date.now(); return new Date(t % 1000 === 0 ? t + 1 : t); } };
    const scheduler = new Scheduler(redis, { heartbeatIntervalMs: 1000, clock });
    const entryId = scheduler.register({ everySeconds: 1, task: { type: 'metrics:rollup', payload: Buffer.from('{}') }, options: { queue: 'low', maxRetry: 2 } });
    scheduler.start();
    try {
      const events = await waitFor('two enqueues', async () => {
        const { events } = await listSchedulerEvents(redis, entryId, { page: 1, size: 10 });
        return events.length >= 2 ? events : null;
      }, 5000);
      expect(await stateOf(redis, 'low', events[0]!.taskId)).toBe('pending');
      expect(events[0]!.enqueuedAt!.getTime()).toBeGreaterThanOrEqual(events[1]!.enqueuedAt!.getTime());
      // As Go: the score is the Unix second, the event's time keeps its sub-second part
      // (the clock below never lands on .000).
      const [raw, score] = await redis.zrangeBuffer(k.schedulerHistoryKey(entryId), -1, -1, 'WITHSCORES');
      const enqueueTime = fromBinary(SchedulerEnqueueEventSchema, raw!).enqueueTime!;
      expect(enqueueTime.nanos).toBeGreaterThan(0);
      expect(Number(score)).toBe(Number(enqueueTime.seconds));
      const [entry] = await listSchedulerEntries(redis, new Date());
      expect(entry).toMatchObject({
        id: entryId,
        spec: '@every 1s',
        taskType: 'metrics:rollup',
        enqueueOptions: ['MaxRetry(2)', 'Queue("low")'],
        schedulerId: scheduler.id,
      });
      expect(entry!.nextEnqueueAt!.getTime()).toBeGreaterThan(Date.now() - 2000);
      expect(await redis.ttl(k.schedulerEntriesKey(scheduler.id))).toBeLessThanOrEqual(2);
    } finally {
      await scheduler.shutdown();
    }
    expect(await redis.zcard(k.ALL_SCHEDULERS)).toBe(0);
    expect(await redis.exists(k.schedulerHistoryKey(entryId), k.schedulerEntriesKey(scheduler.id))).toBe(0);
  });

  it('reports a never-run entry with Go’s zero time, read back as null', async () => {
    const scheduler = new Scheduler(redis, { heartbeatIntervalMs: 1000 });
    scheduler.register({ everySeconds: 3600, task: { type: 'hourly', payload: null } });
    scheduler.start();
    try {
      const [entry] = await waitFor('listed', async () => {
        const list = await listSchedulerEntries(redis, new Date());
        return list.length === 1 ? list : null;
      });
      expect(entry!.prevEnqueueAt).toBeNull();
      expect(entry!.spec).toBe('@every 1h0m0s');
    } finally {
      await scheduler.shutdown();
    }
  });
});
