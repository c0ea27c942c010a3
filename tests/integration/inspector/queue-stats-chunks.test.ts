/**
 * Thousands of queues are read in script calls of bounded size, sized by the time Redis
 * reports for each: every queue is answered, a malformed queue among them is unreadable alone,
 * and no call reads more queues than the sizing allows (the first FIRST_CHUNK, each later one
 * at most twice the size of a call answered before, never above MAX_CHUNK, at most MAX_CALLS_IN_FLIGHT calls outstanding). Redis sees SSCAN and
 * the stats calls only: nothing per queue, and the names in SSCAN calls of bounded size from
 * the first listing on.
 */
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { keys as k } from '@/lib/asynq';
import { getQueueStats, listQueueStats, statsArgs, statsScriptKeys } from '@/lib/asynq/inspector/queues';
import { runScript } from '@/lib/asynq/scripts';
import { MAX_CALLS_IN_FLIGHT } from '@/lib/asynq/call-sizer';
import { FIRST_CHUNK, MAX_CHUNK, type ChunkCall } from '@/lib/asynq/inspector/queue-stats-chunks';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import { countCommands } from '../../support/command-counter';
import { testRedisUrl, useTestRedis } from '../../support/test-redis';

const DB = 87;
const redis: Redis = await useTestRedis(DB);
const QUEUES = 3000;
const name = (i: number) => `q${String(i).padStart(4, '0')}`;

/** 3 tasks in each queue (pending, scheduled, retry), 200 queues at a time (auto-pipelined). */
async function seedQueues() {
  const later = Math.floor(Date.now() / 1000) + 3600;
  for (let from = 0; from < QUEUES; from += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, QUEUES - from) }, async (_, j) => {
        const queue = name(from + j);
        await seedPending(redis, newTaskMessage({ type: 't', queue }));
        await seedZset(redis, 'scheduled', newTaskMessage({ type: 't', queue }), later);
        await seedZset(redis, 'retry', newTaskMessage({ type: 't', queue }), later);
      }),
    );
  }
}

describe(`listing ${QUEUES} queues`, () => {
  it('answers every queue from bounded script calls, a malformed one alone unreadable', async () => {
    await seedQueues();
    await redis.set(k.activeKey(name(1500)), 'not a list');
    await redis.set(k.processedTotalKey(name(2999)), 'many');

    await getQueueStats(redis, name(0), new Date()); // Redis knows the script, as on a running console
    const calls: ChunkCall[] = [];
    // A fresh client: its chunk size starts at FIRST_CHUNK, as on a console just started.
    const client = redis.duplicate();
    const { result, commands } = await countCommands(testRedisUrl(DB), DB, () =>
      listQueueStats(client, new Date(), { onCall: (c) => calls.push(c) }),
    );
    client.disconnect();
    const client2 = redis.duplicate();
    await listQueueStats(client2, new Date());
    afterAll(() => client2.disconnect());

    expect(result.map((q) => q.queue)).toEqual(Array.from({ length: QUEUES }, (_, i) => name(i)));
    const bad = result.filter((q) => q.unreadable !== null);
    expect(bad.map((q) => [q.queue, q.unreadable?.key])).toEqual([
      [name(1500), k.activeKey(name(1500))],
      [name(2999), k.processedTotalKey(name(2999))],
    ]);
    for (const q of result.filter((r) => r.unreadable === null)) {
      expect(q).toMatchObject({ pending: 1, scheduled: 1, retry: 1, size: 3, problem: null });
    }

    // Chunked, in the sizes the rule allows, and nothing but the stats calls.
    expect(calls.reduce((n, c) => n + c.queues, 0)).toBe(QUEUES);
    expect(calls.length).toBeGreaterThanOrEqual(Math.ceil(QUEUES / MAX_CHUNK));
    // The first call is sent FIRST_CHUNK queues (it reads fewer if it stopped at its time budget).
    expect(calls[0]!.queues).toBeLessThanOrEqual(FIRST_CHUNK);
    // Each call at most twice the largest answered before it (answers come in order).
    for (let i = 1; i < calls.length; i++) {
      const before = calls.slice(0, Math.max(1, i - MAX_CALLS_IN_FLIGHT + 1));
      expect(calls[i]!.queues).toBeLessThanOrEqual(Math.min(2 * Math.max(...before.map((c) => c.queues)), MAX_CHUNK));
    }
    // (INFO: the once-per-connection check for EVALSHA_RO.)
    // The names in bounded SSCAN calls (5,000 names a call: one here), even on a client's first
    // listing: never one SMEMBERS.
    const scans = commands.filter((c) => c === 'sscan').length;
    expect(scans).toBeGreaterThanOrEqual(1);
    expect(commands).toEqual([...Array<string>(scans).fill('sscan'), 'info', ...calls.map(() => 'evalsha_ro')]);
    // Redis reported each call's own time (positive; its bound is the bench's to measure).
    for (const c of calls) expect(c.elapsedUs).toBeGreaterThan(0);

    // A second client, which has learned the chunk size, answers the same.
    const again = await countCommands(testRedisUrl(DB), DB, () => listQueueStats(client2, new Date()));
    const counts = (rows: typeof result) => rows.map((q) => [q.queue, q.size, q.unreadable?.key ?? null]);
    expect(counts(again.result)).toEqual(counts(result));
    expect(again.commands.filter((c) => c === 'sscan').length).toBeGreaterThanOrEqual(1);
    expect(again.commands).not.toContain('smembers');
  });

  it('stops a call once it has run past its time budget, after a few queues, and answers those', async () => {
    // The queues seeded above; a budget of 0 µs is spent at the first check of the clock.
    const qs = Array.from({ length: 20 }, (_, i) => name(i));
    const reply = (await runScript(redis, 'queueStats', statsScriptKeys(qs), statsArgs(new Date(), 0, 0))) as unknown[];
    expect(reply.length - 1).toBe(8);
    // Up to MIN_CHUNK queues are read whatever the clock says: a small deployment is one call
    // even when Redis is slow.
    const small = (await runScript(redis, 'queueStats', statsScriptKeys(qs), statsArgs(new Date(), 0))) as unknown[];
    expect(small.length - 1).toBe(20);
    const whole = (await runScript(redis, 'queueStats', statsScriptKeys(qs), statsArgs(new Date(), 10_000_000))) as unknown[];
    expect(whole.length - 1).toBe(20);
  });
});
