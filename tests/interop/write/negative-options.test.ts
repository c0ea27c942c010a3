/**
 * Negative and sub-second durations, as asynq v0.26.0's client stores them: Timeout and
 * Retention go into the task as given (whole seconds, truncated toward zero, negatives too),
 * any non-zero Timeout counts as set (no 30-minute default, even when it stores 0), and only
 * MaxRetry is clamped at 0 (by asynq's MaxRetry option). The same enqueue through Go's client
 * and through the package's `enqueueTask` / `batchEnqueue` must leave the same Redis, msg bytes
 * included, and the stored fields are checked against the expected values so that two equal
 * wrong answers fail too. How servers then treat such tasks is in tests/interop/worker/outcomes.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { batchEnqueue } from '@/lib/asynq/client/batch-enqueue';
import { enqueueTask } from '@/lib/asynq/client/enqueue';
import type { EnqueueOptions } from '@/lib/asynq/client/options';
import { decodeTaskMessage } from '@/lib/asynq/codec';
import * as k from '@/lib/asynq/keys';
import { openTestRedis } from '../../support/test-redis';
import { asynqGo, dumpRedis, goEnqueue, type GoEnqueueRequest } from './go';
import { diffDumps } from './redis-diff';

const DB_OURS = 47;
const DB_GO = 48;
const Q = 'neg';

asynqGo.requireGo('negative-options.test.ts');

interface Case {
  name: string;
  go: NonNullable<GoEnqueueRequest['options']>;
  ours: EnqueueOptions;
  /** The stored msg fields both sides must have written. */
  stored: { retry: number; timeout: number; retention: number; deadline?: number };
  state: 'pending' | 'scheduled';
}

const at = Math.floor(Date.now() / 1000) + 3600;

const CASES: Case[] = [
  { name: 'Timeout(-5s): stored -5, no default timeout', go: { timeoutSeconds: -5 }, ours: { timeoutSeconds: -5 }, stored: { retry: 25, timeout: -5, retention: 0 }, state: 'pending' },
  { name: 'Retention(-60s): stored -60, default timeout', go: { retentionSeconds: -60 }, ours: { retentionSeconds: -60 }, stored: { retry: 25, timeout: 1800, retention: -60 }, state: 'pending' },
  { name: 'MaxRetry(-3): clamped to 0', go: { maxRetry: -3 }, ours: { maxRetry: -3 }, stored: { retry: 0, timeout: 1800, retention: 0 }, state: 'pending' },
  {
    name: 'all three negative with a Deadline',
    go: { maxRetry: -1, timeoutSeconds: -30, retentionSeconds: -3600, deadlineUnix: at },
    ours: { maxRetry: -1, timeoutSeconds: -30, retentionSeconds: -3600, deadline: new Date(at * 1000) },
    stored: { retry: 0, timeout: -30, retention: -3600, deadline: at },
    state: 'pending',
  },
  {
    name: 'negative Timeout on a scheduled task',
    go: { timeoutSeconds: -1, processAtUnix: at },
    ours: { timeoutSeconds: -1, processAt: new Date(at * 1000) },
    stored: { retry: 25, timeout: -1, retention: 0 },
    state: 'scheduled',
  },
  { name: 'ProcessIn(-60s): due now, pending', go: { processInSeconds: -60 }, ours: { processInSeconds: -60 }, stored: { retry: 25, timeout: 1800, retention: 0 }, state: 'pending' },
];

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe.skipIf(asynqGo.noGo)('negative durations: the package stores what asynq v0.26.0 stores', () => {
  let redis: Redis;
  let goRedis: Redis;

  beforeAll(async () => {
    await asynqGo.bin();
    redis = await openTestRedis(DB_OURS);
    goRedis = await openTestRedis(DB_GO);
  });

  beforeEach(async () => {
    await redis.flushdb();
    await goRedis.flushdb();
  });

  afterAll(() => {
    redis?.disconnect();
    goRedis?.disconnect();
  });

  async function compare(c: Case, enqueueOurs: (taskId: string) => Promise<unknown>): Promise<void> {
    const taskId = 'same-id';
    const fromSec = Math.floor(Date.now() / 1000);
    const go = await goEnqueue(DB_GO, { queue: Q, type: 'neg:a', payloadBase64: b64('x'), options: { ...c.go, taskId } });
    expect(go.ok, `Go enqueue: ${JSON.stringify(go)}`).toBe(true);
    await enqueueOurs(taskId);
    const window = { fromSec, toSec: Math.ceil(Date.now() / 1000) };
    const [goDump, ourDump] = await Promise.all([dumpRedis(DB_GO), dumpRedis(DB_OURS)]);
    expect(diffDumps(goDump, ourDump, window), `Redis after enqueue (${c.name}): asynq's client vs ours`).toEqual([]);
    for (const [side, r] of [['asynq', goRedis], ['ours', redis]] as const) {
      const bytes = await r.hgetBuffer(k.taskKey(Q, taskId), 'msg');
      expect(bytes, `${side}: the task hash has a msg`).not.toBeNull();
      const m = decodeTaskMessage(bytes!);
      expect({ retry: m.retry, timeout: m.timeout, retention: m.retention, ...(c.stored.deadline ? { deadline: m.deadline } : {}) }, `${side}: stored fields`).toEqual(c.stored);
      expect(await r.hget(k.taskKey(Q, taskId), 'state'), `${side}: state`).toBe(c.state);
    }
  }

  it.each(CASES.map((c) => [c.name, c] as const))('enqueueTask, %s', async (_name, c) => {
    await compare(c, (taskId) => enqueueTask(redis, { type: 'neg:a', payload: Buffer.from('x') }, { ...c.ours, queue: Q, taskId }, new Date()));
  });

  it.each(CASES.map((c) => [c.name, c] as const))('batchEnqueue, %s', async (_name, c) => {
    await compare(c, async (taskId) => {
      const [r] = await batchEnqueue(redis, [{ task: { type: 'neg:a', payload: Buffer.from('x') }, options: { ...c.ours, queue: Q, taskId } }], new Date());
      expect(r, JSON.stringify(r)).toMatchObject({ ok: true, id: taskId, state: c.state });
    });
  });

  it('a sub-second Timeout: stored 0 without the 30-minute default (asynq counts any non-zero Timeout as set)', async () => {
    const info = await enqueueTask(redis, { type: 'neg:a', payload: Buffer.from('x') }, { queue: Q, timeoutSeconds: -0.5 }, new Date());
    expect({ timeout: info.message!.timeout, deadline: info.message!.deadline }).toEqual({ timeout: 0, deadline: 0 });
    const positive = await enqueueTask(redis, { type: 'neg:a', payload: Buffer.from('y') }, { queue: Q, timeoutSeconds: 0.5 }, new Date());
    expect(positive.message!.timeout).toBe(0);
    const unset = await enqueueTask(redis, { type: 'neg:a', payload: Buffer.from('z') }, { queue: Q }, new Date());
    expect(unset.message!.timeout, 'no Timeout at all: the default').toBe(1800);
  });
});
