/**
 * The enqueues to run now that one connection is given in one tick go to Redis as one
 * enqueue.lua call per queue of at most 16 tasks (lib/asynq/client/enqueue-batch.ts), and each
 * caller still gets its own outcome: its TaskInfo, its own ErrTaskIDConflict, its own refused
 * option, or the error of the call that carried it.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@/lib/asynq/client/client';
import { encodeTaskMessage } from '@/lib/asynq/codec';
import { ErrTaskIDConflict, isAsynqError } from '@/lib/asynq/errors';
import * as k from '@/lib/asynq/keys';
import { createRedis, ReplyLostError } from '@/lib/asynq/redis';
import { LUA_SCRIPTS } from '@/lib/asynq/scripts/registry.gen';
import type { TaskInfo } from '@/lib/asynq/types';
import { errorIs } from '@/lib/asynq/worker/errors';
import { countCommands } from '../../support/command-counter';
import { testRedisUrl, useTestRedis } from '../../support/test-redis';

const DB = 6;
const admin = await useTestRedis(DB);
let redis: Redis;
let client: Client;

beforeAll(async () => {
  redis = createRedis({ url: testRedisUrl(DB) });
  await redis.ping();
  client = new Client(redis);
});
afterAll(() => redis.disconnect());

const task = (i: number) => ({ type: 'tick:t', payload: Buffer.from(`p${i}`) });

/** Runs `issue` (which must issue its enqueues in one tick) and counts the enqueue.lua calls Redis saw. */
async function inOneTick<T>(issue: () => Promise<T>): Promise<{ result: T; enqueueCalls: number; commands: string[] }> {
  // So that no call needs an EVAL fallback.
  for (const name of ['enqueue', 'enqueueUnique', 'schedule'] as const) await admin.script('LOAD', LUA_SCRIPTS[name].lua);
  const counted = await countCommands(testRedisUrl(DB), DB, issue);
  return { result: counted.result, enqueueCalls: counted.commands.filter((c) => c === 'evalsha').length, commands: counted.commands };
}

/** What Redis holds for an enqueued task, against the TaskInfo its caller got. */
async function expectWritten(info: TaskInfo): Promise<void> {
  const [msg, state] = await admin.hmgetBuffer(k.taskKey(info.queue, info.id), 'msg', 'state');
  expect(state?.toString(), `state of ${info.id}`).toBe('pending');
  expect(msg?.equals(Buffer.from(encodeTaskMessage(info.message!))), `msg of ${info.id} is the caller's message`).toBe(true);
}

describe('enqueues of one tick, one call per queue, each caller with its own outcome', () => {
  it('a taken ID, an ID given twice and a refused option among successes: each caller gets its own result', async () => {
    await client.enqueue({ type: 'old', payload: null }, { queue: 'tick', taskId: 'taken' });
    const { result: settled, enqueueCalls } = await inOneTick(() =>
      Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => {
          const opts =
            i === 3 ? { taskId: 'taken' }
            : i === 5 ? { maxRetry: Number.NaN }
            : i === 8 || i === 9 ? { taskId: 'twice' }
            : { taskId: `t${i}` };
          return client.enqueue(task(i), { queue: 'tick', ...opts });
        }),
      ),
    );
    expect(enqueueCalls, 'the 11 valid tasks in one call').toBe(1);
    for (const [i, s] of settled.entries()) {
      if (i === 3 || i === 9) {
        expect(s.status, `task ${i}`).toBe('rejected');
        const err = (s as PromiseRejectedResult).reason as unknown;
        expect(errorIs(err, ErrTaskIDConflict), `task ${i}: ${String(err)}`).toBe(true);
        expect(isAsynqError(err) && err.details, `task ${i} names its own ID`).toMatchObject({ existing: { id: i === 3 ? 'taken' : 'twice', queue: 'tick', state: 'pending' } });
      } else if (i === 5) {
        expect(s.status).toBe('rejected');
        const err = (s as PromiseRejectedResult).reason as unknown;
        expect(isAsynqError(err, 'invalid_argument') && err.details, String(err)).toEqual({ field: 'maxRetry' });
      } else {
        expect(s.status, `task ${i}: ${s.status === 'rejected' ? String(s.reason) : ''}`).toBe('fulfilled');
        const info = (s as PromiseFulfilledResult<TaskInfo>).value;
        expect(info.id).toBe(i === 8 ? 'twice' : `t${i}`);
        expect(Buffer.from(info.message!.payload).toString()).toBe(`p${i}`);
        await expectWritten(info);
      }
    }
    // The taken and the twice-given IDs keep the task that had them first.
    expect((await admin.hgetBuffer(k.taskKey('tick', 'twice'), 'msg'))?.includes(Buffer.from('p8'))).toBe(true);
    expect(await admin.hget(k.taskKey('tick', 'taken'), 'state')).toBe('pending');
    // Written in the order issued: LPUSH puts the last one first.
    const order = [0, 1, 2, 4, 6, 7, 8, 10, 11].map((i) => (i === 8 ? 'twice' : `t${i}`));
    expect(await admin.lrange(k.pendingKey('tick'), 0, -1)).toEqual([...order].reverse().concat('taken'));
  });

  it('40 tasks to two queues in one tick: calls of at most 16 per queue, both queues registered', async () => {
    const queues = ['tick:a', 'tick:b'];
    const { result: infos, enqueueCalls, commands } = await inOneTick(() =>
      Promise.all(Array.from({ length: 40 }, (_, i) => client.enqueue(task(i), { queue: queues[i % 2]!, taskId: `m${i}` }))),
    );
    expect(commands, 'one call each: 16 + 4 tasks per queue, nothing else').toEqual(Array(4).fill('evalsha'));
    expect(enqueueCalls).toBe(4);
    expect(infos.map((t) => [t.id, t.queue])).toEqual(Array.from({ length: 40 }, (_, i) => [`m${i}`, queues[i % 2]]));
    for (const info of infos) await expectWritten(info);
    for (const [j, q] of queues.entries()) {
      const ids = Array.from({ length: 20 }, (_, n) => `m${2 * n + j}`);
      expect(await admin.lrange(k.pendingKey(q), 0, -1), `${q} in the order issued`).toEqual(ids.reverse());
    }
    expect((await admin.smembers(k.ALL_QUEUES)).sort()).toEqual(queues);
  });

  it('one enqueue alone is a call of one task: one command, as asynq sends one script call', async () => {
    const { result: info, commands } = await inOneTick(() => client.enqueue(task(0), { queue: 'tick', taskId: 'alone' }));
    expect(commands).toEqual(['evalsha']);
    await expectWritten(info);
    expect(await admin.smembers(k.ALL_QUEUES)).toEqual(['tick']);
  });

  it('unique and scheduled tasks in the same tick keep their own scripts; the plain ones still share a call', async () => {
    const { result, commands } = await inOneTick(() =>
      Promise.all([
        client.enqueue(task(0), { queue: 'tick', taskId: 'p0' }),
        client.enqueue(task(1), { queue: 'tick', taskId: 'u1', uniqueTtlSeconds: 60 }),
        client.enqueue(task(2), { queue: 'tick', taskId: 's2', processInSeconds: 60 }),
        client.enqueue(task(3), { queue: 'tick', taskId: 'p3' }),
      ]),
    );
    expect(result.map((t) => t.state)).toEqual(['pending', 'pending', 'scheduled', 'pending']);
    expect(commands.filter((c) => c === 'evalsha'), 'one call for p0 and p3, one each for u1 and s2').toHaveLength(3);
    expect((await admin.lrange(k.pendingKey('tick'), 0, -1)).sort()).toEqual(['p0', 'p3', 'u1']);
    expect(await admin.zrange(k.scheduledKey('tick'), 0, -1)).toEqual(['s2']);
    expect(await admin.get(k.uniqueKey('tick', 'tick:t', Buffer.from('p1')))).toBe('u1');
  });

  it('a connection lost before the call is written: every task of it fails with the error saying so, nothing is written', async () => {
    const calls = Array.from({ length: 5 }, (_, i) => client.enqueue(task(i), { queue: 'tick', taskId: `lost${i}` }));
    // Same tick: the call is not sent yet when the socket goes.
    redis.stream.destroy();
    const reasons = await rejections(calls);
    expect(new Set(reasons).size, 'one error, the call\'s').toBe(1);
    expect(String(reasons[0])).toMatch(/Stream isn't writeable/); // lib/server reads it as not sent
    expect(await admin.exists(k.pendingKey('tick'))).toBe(0);
    await reconnected();
  });

  it('a connection lost after the call is written: every task of it fails as reply lost; Redis ran all of them or none', async () => {
    // Redis holds the call (a write) until the pause ends; the socket goes meanwhile.
    await admin.call('CLIENT', 'PAUSE', '300', 'WRITE');
    const calls = Array.from({ length: 5 }, (_, i) => client.enqueue(task(i), { queue: 'tick', taskId: `held${i}` }));
    await new Promise((r) => setTimeout(r, 50));
    redis.stream.destroy();
    const reasons = await rejections(calls);
    expect(new Set(reasons).size, 'one error, the call\'s').toBe(1);
    expect(reasons[0] instanceof ReplyLostError, String(reasons[0])).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    expect([0, 5], 'tasks written: never part of the call').toContain(await admin.llen(k.pendingKey('tick')));
    await reconnected();
  });
});

async function rejections(calls: Promise<unknown>[]): Promise<unknown[]> {
  const settled = await Promise.allSettled(calls);
  return settled.map((s) => {
    expect(s.status).toBe('rejected');
    return (s as PromiseRejectedResult).reason;
  });
}

async function reconnected(): Promise<void> {
  // The connection comes back and the next tick's enqueues go through.
  await expect.poll(() => redis.ping().catch(() => null), { timeout: 5000 }).toBe('PONG');
  expect((await client.enqueue(task(9), { queue: 'tick', taskId: 'back' })).id).toBe('back');
}
