/**
 * Clone, judged by the real asynq (tests/go): tasks a Go client enqueued with every option,
 * Unique(ttl) included, read through our API and turned into the enqueue form's request, must
 * enqueue the same task: the same options in the TaskMessage and a lock of the same TTL.
 * asynq stores no unique TTL; the API reads it back from the lock (uniqueTtlSeconds).
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeTaskMessage } from '@/lib/asynq/codec';
import * as k from '@/lib/asynq/keys';
import { draftFromTask, toEnqueueRequest } from '@/components/enqueue/enqueue-draft';
import type { TaskDto } from '@/lib/contract/tasks';
import { openTestRedis } from '../../support/test-redis';
import { ASYNQ } from '../go-harness';
import { asynqGo, goEnqueue } from './go';
import { openApi, type Api } from './routes';

const DB = 65;
const SOURCE = 'clone-src';
const TARGET = 'clone-dst';

asynqGo.requireGo('clone-options.test.ts');

async function msgOf(redis: Redis, q: string, id: string) {
  const raw = await redis.hgetBuffer(k.taskKey(q, id), 'msg');
  if (!raw) throw new Error(`no msg for ${q}/${id}`);
  return decodeTaskMessage(raw);
}

describe.skipIf(asynqGo.noGo)(`a clone of a task asynq ${ASYNQ.version} enqueued keeps every option`, () => {
  let api: Api;
  let redis: Redis;

  beforeAll(async () => {
    await asynqGo.bin();
    redis = await openTestRedis(DB);
    api = await openApi(DB);
  });
  afterAll(async () => {
    await redis?.quit();
  });

  it.each([
    ['pending, Unique(1h)', { uniqueSeconds: 3600 }],
    ['pending, Unique(90s)', { uniqueSeconds: 90 }],
    ['scheduled 2h ahead, Unique(10m)', { uniqueSeconds: 600, processInSeconds: 7200 }],
  ])('%s', async (name, extra) => {
    const type = `clone:${name}`;
    const go = await goEnqueue(DB, {
      queue: SOURCE, type, payloadBase64: Buffer.from(`{"n":"${name}"}`).toString('base64'),
      options: { maxRetry: 7, timeoutSeconds: 1800, retentionSeconds: 3900, ...extra },
    });
    if (!go.ok) throw new Error(`Go enqueue: ${go.error}`);
    const read = await api.getTask(SOURCE, go.task.id);
    expect(read.status).toBe(200);
    const task = read.body as TaskDto;
    expect(task.uniqueTtlSeconds, 'the TTL read back from the lock Go took').toBe(extra.uniqueSeconds);

    // The form as Clone fills it, sent to another queue (the same one would meet the original's lock).
    const built = toEnqueueRequest({ ...draftFromTask(task, { text: task.payload, encoding: task.payloadEncoding }), queue: TARGET });
    expect(built.ok, JSON.stringify(built)).toBe(true);
    if (!built.ok) return;
    const made = await api.enqueue(TARGET, built.body);
    expect(made.status, JSON.stringify(made.body)).toBe(201);

    const [orig, copy] = await Promise.all([msgOf(redis, SOURCE, go.task.id), msgOf(redis, TARGET, made.body.id)]);
    const options = (m: typeof orig) => ({ type: m.type, payload: Buffer.from(m.payload).toString(), retry: m.retry, timeout: m.timeout, retention: m.retention, deadline: m.deadline, headers: m.headers });
    expect(options(copy)).toEqual(options(orig));
    expect(copy.uniqueKey).toBe(k.uniqueKey(TARGET, type, Buffer.from(orig.payload)));
    // A clone runs when asked (now): its lock is the full TTL, as Go's Unique(ttl) would take it.
    const pttl = await redis.pttl(copy.uniqueKey);
    expect(Math.ceil(pttl / 1000)).toBe(extra.uniqueSeconds);
  });
});
