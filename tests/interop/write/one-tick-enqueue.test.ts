/**
 * Enqueues issued in one tick share enqueue.lua calls (lib/asynq/client/enqueue-batch.ts): the
 * Redis they leave is the one asynq's client leaves enqueueing the same tasks one by one, byte
 * for byte, and Go's Inspector reads every task of such a call as Go's own. The tick mixes
 * every option of a task to run now, two queues, an ID already taken, an ID given twice and a
 * refused option; each outcome is asynq's for the same request.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueTask } from '@/lib/asynq/client/enqueue';
import type { EnqueueOptions } from '@/lib/asynq/client/options';
import { createRedis } from '@/lib/asynq/redis';
import { LUA_SCRIPTS } from '@/lib/asynq/scripts/registry.gen';
import { countCommands } from '../../support/command-counter';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import type { GoDump, GoTask } from '../go-dump';
import { ASYNQ, redisArgs } from '../go-harness';
import { asynqGo, dumpRedis, type GoEnqueueRequest } from './go';
import { diffDumps } from './redis-diff';

/** Ours. */
const DB = 7;
/** asynq's client, the same requests one by one. */
const DB_GO = 8;

asynqGo.requireGo('one-tick-enqueue.test.ts');

const QUEUES = ['tick', 'tick:two'];
const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64');

interface Case {
  go: GoEnqueueRequest;
  ours: { payload: Uint8Array | null; headers?: Record<string, string>; options: EnqueueOptions };
}

/** The options of a task to run now, each as asynq's request and as ours. */
function variants(at: number): Case[] {
  const x = Buffer.from('x');
  const list: Case[] = [
    { go: { type: 'ok:a', payloadBase64: b64('hello') }, ours: { payload: Buffer.from('hello'), options: {} } },
    { go: { type: 'ok:a', payloadBase64: null }, ours: { payload: null, options: {} } },
    { go: { type: 'ok:a', payloadBase64: '' }, ours: { payload: new Uint8Array(), options: {} } },
    { go: { type: 'ok:b', payloadBase64: b64(Buffer.from([0, 1, 0xfe, 0xff, 0x80, 0x0a])) }, ours: { payload: Buffer.from([0, 1, 0xfe, 0xff, 0x80, 0x0a]), options: {} } },
    {
      go: { type: 'ok:a', payloadBase64: b64(x), options: { maxRetry: 3, timeoutSeconds: 10, retentionSeconds: 3600 } },
      ours: { payload: x, options: { maxRetry: 3, timeoutSeconds: 10, retentionSeconds: 3600 } },
    },
    { go: { type: 'ok:a', payloadBase64: b64(x), options: { maxRetry: -5 } }, ours: { payload: x, options: { maxRetry: -5 } } },
    { go: { type: 'ok:a', payloadBase64: b64(x), options: { deadlineUnix: at } }, ours: { payload: x, options: { deadline: new Date(at * 1000) } } },
    {
      go: { type: 'ok:a', payloadBase64: b64(x), options: { timeoutSeconds: 30, deadlineUnix: at } },
      ours: { payload: x, options: { timeoutSeconds: 30, deadline: new Date(at * 1000) } },
    },
  ];
  if (ASYNQ.headers) {
    list.push({ go: { type: 'ok:h', payloadBase64: b64(x), headers: { 'X-Trace': 'abc 123' } }, ours: { payload: x, headers: { 'X-Trace': 'abc 123' }, options: {} } });
  }
  return list;
}

/** 40 requests, three by three to each queue; to `tick`: #6 takes an ID already taken, #12 and #13 give one ID twice, #20 a blank ID. */
function requests(at: number): Case[] {
  const vs = variants(at);
  return Array.from({ length: 40 }, (_, i) => {
    const v = vs[i % vs.length]!;
    const taskId = i === 6 ? 'taken' : i === 12 || i === 13 ? 'twice' : i === 20 ? '  ' : `t${i}`;
    const queue = QUEUES[Math.floor(i / 3) % 2]!;
    return {
      go: { ...v.go, queue, options: { ...v.go.options, taskId } },
      ours: { ...v.ours, options: { ...v.ours.options, queue, taskId } },
    };
  });
}

describe.skipIf(asynqGo.noGo)(`enqueues of one tick against asynq ${ASYNQ.version} enqueueing one by one`, () => {
  let redis: Redis;
  let admin: Redis;
  let goAdmin: Redis;

  beforeAll(async () => {
    await asynqGo.bin();
    admin = await openTestRedis(DB);
    goAdmin = await openTestRedis(DB_GO);
    redis = createRedis({ url: testRedisUrl(DB) });
  });
  afterAll(() => {
    redis?.disconnect();
    admin?.disconnect();
    goAdmin?.disconnect();
  });

  it('the same Redis byte for byte, the same outcome per request, and Go reads every task', async () => {
    const at = Math.floor(Date.now() / 1000) + 3600;
    const cases = requests(at);
    const seed: GoEnqueueRequest = { queue: 'tick', type: 'old', payloadBase64: b64('old'), options: { taskId: 'taken' } };
    for (const db of [DB, DB_GO]) {
      const [r] = await asynqGo.json<{ ok: boolean }[]>('enqueue-many', redisArgs(db), { stdin: [{ options: {}, ...seed }] });
      expect(r?.ok).toBe(true);
    }
    await admin.script('LOAD', LUA_SCRIPTS.enqueue.lua);
    const fromSec = Math.floor(Date.now() / 1000);

    const { result: settled, commands } = await countCommands(testRedisUrl(DB), DB, () =>
      Promise.allSettled(cases.map((c) => enqueueTask(redis, { type: c.go.type, payload: c.ours.payload, ...(c.ours.headers ? { headers: c.ours.headers } : {}) }, c.ours.options, new Date()))),
    );
    const go = await asynqGo.json<{ ok: boolean; id?: string; error?: string }[]>('enqueue-many', redisArgs(DB_GO), {
      stdin: cases.map((c) => ({ options: {}, ...c.go })),
    });
    const window = { fromSec, toSec: Math.ceil(Date.now() / 1000) };

    // 39 valid tasks, 20 and 19 per queue: calls of at most 16 (then the conflicts' descriptions, no script).
    expect(commands.filter((c) => c === 'evalsha'), `enqueue calls among ${commands.join(' ')}`).toHaveLength(4);
    const ours = settled.map((s) => (s.status === 'fulfilled' ? { ok: true, id: s.value.id } : { ok: false, error: (s.reason as Error).message }));
    expect(ours, 'each outcome as asynq\'s for the same request').toEqual(go.map((g) => (g.ok ? { ok: true, id: g.id } : { ok: false, error: g.error })));
    expect(ours.filter((o) => !o.ok).map((o) => o.error)).toEqual(['task ID conflicts with another task', 'task ID conflicts with another task', 'task ID cannot be empty']);

    const [goDump, ourDump] = await Promise.all([dumpRedis(DB_GO), dumpRedis(DB)]);
    expect(diffDumps(goDump, ourDump, window), 'Redis after the tick: asynq one by one vs ours in shared calls').toEqual([]);

    const [goView, ourView] = await Promise.all([asynqGo.json<GoDump>('dump', redisArgs(DB_GO)), asynqGo.json<GoDump>('dump', redisArgs(DB))]);
    const pending = (d: GoDump, q: string) => (d.tasks[q]?.pending ?? []).map(({ nextProcessAt: _, ...t }: GoTask) => t);
    for (const q of QUEUES) {
      expect(pending(ourView, q).length, `${q}: Go's Inspector lists every task`).toBe(19);
      expect(pending(ourView, q), `${q}: Go's Inspector reads ours as its own`).toEqual(pending(goView, q));
    }
  });
});
