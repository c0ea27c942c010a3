/**
 * A Go server and ours consume one queue at the same time: 10 000 tasks (half enqueued by Go's
 * client, half by ours) must each be processed exactly once — every handler call appends
 * `<side>:<task id>` to a Redis list, which must hold every ID once and nothing else.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Server } from '@asynqlens/asynq';
import * as k from '@asynqlens/asynq/keys';
import { openTestRedis } from '../../support/test-redis';
import { waitFor } from '../../support/wait-for';
import { goHarness, redisArgs } from '../go-harness';
import { interopConfig, interopMux } from './handlers';

const DB = 42;
const TOTAL = 10_000;
const QUEUE = 'shared';
const RECORD = 'interop:seen';
const asynqGo = goHarness('worker');
asynqGo.requireGo('shared-queue worker interop');

describe.skipIf(asynqGo.noGo)('Go and TypeScript servers on one queue', () => {
  let redis: Redis;
  const ids: string[] = [];
  let seen: string[] = [];

  beforeAll(async () => {
    redis = await openTestRedis(DB);
    const half = TOTAL / 2;
    const goRequests = Array.from({ length: half }, (_, i) => ({ queue: QUEUE, type: 'count:go', payloadBase64: Buffer.from(String(i)).toString('base64'), options: { taskId: `go-${i}` } }));
    const res = await asynqGo.json<{ ok: boolean }[]>('enqueue-many', redisArgs(DB), { stdin: goRequests });
    expect(res.filter((r) => r.ok)).toHaveLength(half);
    for (let start = 0; start < half; start += 1000) {
      const items = Array.from({ length: 1000 }, (_, j) => ({ task: { type: 'count:ts', payload: Buffer.from(String(start + j)) }, options: { queue: QUEUE, taskId: `ts-${start + j}` } }));
      const r = await new Client(redis).enqueueBatch(items);
      expect(r.filter((x) => x.ok)).toHaveLength(1000);
    }
    ids.push(...goRequests.map((r) => r.options.taskId), ...Array.from({ length: half }, (_, i) => `ts-${i}`));
    expect(await redis.llen(k.pendingKey(QUEUE))).toBe(TOTAL);

    const goServe = await asynqGo.start('serve', [...redisArgs(DB), '--queues', `${QUEUE}:1`, '--concurrency', '10', '--record-list', RECORD]);
    const ours = new Server(redis, { ...interopConfig(), concurrency: 10, queues: { [QUEUE]: 1 } });
    await ours.start(interopMux(redis, RECORD));
    try {
      await waitFor('all processed', async () => (await redis.llen(RECORD)) >= TOTAL && (await redis.llen(k.activeKey(QUEUE))) === 0, 150_000);
    } finally {
      await Promise.all([goServe.stop(), ours.shutdown()]);
    }
    seen = await redis.lrange(RECORD, 0, -1);
  }, 240_000);

  afterAll(async () => {
    await redis?.quit();
  });

  it('processes every task exactly once, with both servers taking part', () => {
    const bySide = { go: 0, ts: 0 };
    const count = new Map<string, number>();
    for (const entry of seen) {
      const [side, id] = [entry.slice(0, 2), entry.slice(3)];
      bySide[side as 'go' | 'ts']++;
      count.set(id, (count.get(id) ?? 0) + 1);
    }
    const twice = [...count].filter(([, n]) => n > 1).map(([id]) => id);
    const missing = ids.filter((id) => !count.has(id));
    const known = new Set(ids);
    const unknown = [...count.keys()].filter((id) => !known.has(id));
    console.log(`shared queue: ${seen.length} handler calls for ${TOTAL} tasks — Go server ${bySide.go}, TS server ${bySide.ts}; twice ${twice.length}, missing ${missing.length}, unknown ${unknown.length}`);
    expect({ calls: seen.length, twice, missing, unknown }).toEqual({ calls: TOTAL, twice: [], missing: [], unknown: [] });
    expect(bySide.go).toBeGreaterThan(0);
    expect(bySide.ts).toBeGreaterThan(0);
  });

  it('leaves the queue empty with every task counted once', async () => {
    expect(await redis.get(k.processedTotalKey(QUEUE))).toBe(String(TOTAL));
    expect(await redis.get(k.failedTotalKey(QUEUE))).toBeNull();
    for (const key of [k.pendingKey(QUEUE), k.activeKey(QUEUE)]) expect(await redis.llen(key)).toBe(0);
    expect(await redis.zcard(k.leaseKey(QUEUE))).toBe(0);
    expect(await redis.keys(`${k.taskKeyPrefix(QUEUE)}*`)).toEqual([]);
  });
});
