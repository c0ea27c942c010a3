/**
 * The scheduler: enqueues each entry on its cron spec and registers itself like asynq's
 * Scheduler, so the inspector lists its entries (spec text, next and previous fire times) and
 * their enqueue history.
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
    const entryId = scheduler.register('@every 1s', { type: 'metrics:rollup', payload: Buffer.from('{}') }, { queue: 'low', maxRetry: 2 });
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
      // robfig's times: whole seconds; prev is the fire time the last run was due at.
      expect(entry!.nextEnqueueAt!.getTime() % 1000).toBe(0);
      expect(entry!.prevEnqueueAt!.getTime() % 1000).toBe(0);
      expect(entry!.nextEnqueueAt!.getTime()).toBeGreaterThan(entry!.prevEnqueueAt!.getTime());
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
    scheduler.register('@every 1h', { type: 'hourly', payload: null });
    scheduler.start();
    try {
      const [entry] = await waitFor('listed', async () => {
        const list = await listSchedulerEntries(redis, new Date());
        return list.length === 1 ? list : null;
      });
      expect(entry!.prevEnqueueAt).toBeNull();
      expect(entry!.spec).toBe('@every 1h');
    } finally {
      await scheduler.shutdown();
    }
  });
});

describe('Scheduler with cron specs', () => {
  it('lists the spec as written, with robfig’s next time in its location and CRON_TZ', async () => {
    const scheduler = new Scheduler(redis, { heartbeatIntervalMs: 1000, location: 'Asia/Tokyo' });
    const daily = scheduler.register('30 9 * * *', { type: 'daily', payload: null });
    const ny = scheduler.register('CRON_TZ=America/New_York 0 0 1 * *', { type: 'monthly', payload: null });
    const never = scheduler.register('0 0 30 2 *', { type: 'never', payload: null });
    const gone = scheduler.register('@hourly', { type: 'gone', payload: null });
    scheduler.unregister(gone);
    scheduler.start();
    try {
      const list = await waitFor('listed', async () => {
        const l = await listSchedulerEntries(redis, new Date());
        return l.length === 3 ? l : null;
      });
      const byId = new Map(list.map((e) => [e.id, e]));
      expect([byId.get(daily)!.spec, byId.get(ny)!.spec, byId.get(never)!.spec]).toEqual(['30 9 * * *', 'CRON_TZ=America/New_York 0 0 1 * *', '0 0 30 2 *']);
      const tokyo = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
      expect(tokyo.format(byId.get(daily)!.nextEnqueueAt!)).toBe('09:30');
      const nyDay = new Intl.DateTimeFormat('en-GB', { timeZone: 'America/New_York', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
      expect(nyDay.format(byId.get(ny)!.nextEnqueueAt!)).toBe('1, 00:00');
      // No 30 February within five years: Go's zero time, read back as null.
      expect(byId.get(never)!.nextEnqueueAt).toBeNull();
    } finally {
      await scheduler.shutdown();
    }
  });

  it('fires a `* * * * *` entry on the minute', async () => {
    // A clock 0.7 s before a whole minute, so the minute comes without waiting for one.
    const offset = 60_000 - (Date.now() % 60_000) - 700;
    const clock = { now: () => new Date(Date.now() + offset) };
    const scheduler = new Scheduler(redis, { heartbeatIntervalMs: 1000, clock });
    const id = scheduler.register('* * * * *', { type: 'minutely', payload: null }, { queue: 'cron' });
    scheduler.start();
    try {
      const [event] = await waitFor('fired', async () => {
        const { events } = await listSchedulerEvents(redis, id, { page: 1, size: 10 });
        return events.length ? events : null;
      }, 5000);
      expect(await stateOf(redis, 'cron', event!.taskId)).toBe('pending');
      // The event is recorded when the enqueue returns: just after the whole minute.
      expect(event!.enqueuedAt!.getTime() % 60_000).toBeLessThan(1000);
      const [entry] = await waitFor('prev listed', async () => {
        const list = await listSchedulerEntries(redis, clock.now());
        return list[0]?.prevEnqueueAt ? list : null;
      });
      expect(entry!.nextEnqueueAt!.getTime() - entry!.prevEnqueueAt!.getTime()).toBe(60_000);
      expect(entry!.prevEnqueueAt!.getTime() % 60_000).toBe(0);
    } finally {
      await scheduler.shutdown();
    }
  });

  it('takes entries while running and stops one on unregister, as Go’s does', async () => {
    const scheduler = new Scheduler(redis, { heartbeatIntervalMs: 1000 });
    scheduler.start();
    try {
      const id = scheduler.register('@every 1s', { type: 'late', payload: null }, { queue: 'late' });
      await waitFor('fired', async () => (await listSchedulerEvents(redis, id, { page: 1, size: 10 })).events.length > 0, 3000);
      scheduler.unregister(id);
      const count = (await listSchedulerEvents(redis, id, { page: 1, size: 10 })).events.length;
      await new Promise((r) => setTimeout(r, 2100));
      expect((await listSchedulerEvents(redis, id, { page: 1, size: 10 })).events.length).toBe(count);
      expect(await waitFor('gone from the list', async () => ((await listSchedulerEntries(redis, new Date())).length === 0 ? 'gone' : null), 3000)).toBe('gone');
    } finally {
      await scheduler.shutdown();
    }
  });

  it('refuses what Go refuses, with robfig’s text and the field named', () => {
    const scheduler = new Scheduler(redis);
    expect(() => scheduler.register('* * * *', { type: 't', payload: null })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'expected exactly 5 fields, found 4: [* * * *]', details: { field: 'cronspec' } }),
    );
    expect(() => scheduler.unregister('nope')).toThrow('asynq: no scheduler entry found');
    expect(() => new Scheduler(redis, { location: 'Mars/Olympus' })).toThrow('unknown time zone Mars/Olympus');
  });

  it('refuses a second start and a start after shutdown, with Go’s words', async () => {
    const scheduler = new Scheduler(redis, { heartbeatIntervalMs: 1000 });
    scheduler.start();
    expect(() => scheduler.start()).toThrow('asynq: the scheduler is already running');
    await scheduler.shutdown();
    expect(() => scheduler.start()).toThrow('asynq: the scheduler has already been stopped');
  });
});
