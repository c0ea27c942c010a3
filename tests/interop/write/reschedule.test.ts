/**
 * Rescheduling, judged by the real asynq (tests/go): tasks a Go client scheduled are given new
 * times through our API; Go's Inspector must report the new times, and a Go server's forwarder
 * must run the task moved earlier at its new time and leave the one moved later alone. Nothing
 * but the two scores may change in Redis.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshot } from '../../support/redis-snapshot';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import type { GoDump } from '../go-dump';
import { ASYNQ, redisArgs } from '../go-harness';
import { asynqGo, goEnqueue, goProcess } from './go';
import { openApi, type Api } from './routes';

const DB = 64;
const QUEUE = 'resched';

asynqGo.requireGo('reschedule.test.ts');

const b64 = (s: string) => Buffer.from(s).toString('base64');
const isoAt = (s: number) => new Date(s * 1000).toISOString();

describe.skipIf(asynqGo.noGo)(`tasks rescheduled by our API, read and run by asynq ${ASYNQ.version}`, () => {
  let api: Api;
  let redis: Redis;

  beforeAll(async () => {
    await asynqGo.bin();
    redis = await openTestRedis(DB);
    api = await openApi(DB);
    process.env.REDIS_URL = testRedisUrl(DB);
  });
  afterAll(async () => {
    await redis?.quit();
  });

  async function goSchedule(type: string, inSeconds: number): Promise<string> {
    const r = await goEnqueue(DB, { queue: QUEUE, type, payloadBase64: b64(type), options: { processInSeconds: inSeconds, uniqueSeconds: 600 } });
    if (!r.ok) throw new Error(`Go enqueue ${type}: ${r.error}`);
    return r.task.id;
  }

  it('moves only the scores; Go’s Inspector reads the new times and its server runs the tasks by them', async () => {
    const early = await goSchedule('ok:early', 3600);
    const late = await goSchedule('ok:late', 3);
    const stay = await goSchedule('ok:stay', 3600);
    const before = await snapshot(redis);
    const nowS = Math.floor(Date.now() / 1000);
    const earlyAt = nowS + 3;
    const lateAt = nowS + 7200;
    for (const [id, at] of [[early, earlyAt], [late, lateAt]] as const) {
      const r = await api.reschedule(QUEUE, id, isoAt(at));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const zset = `asynq:{${QUEUE}}:scheduled`;
    const after = await snapshot(redis);
    expect({ ...after, [zset]: null }).toEqual({ ...before, [zset]: null });

    const dump = await asynqGo.json<GoDump>('dump', redisArgs(DB));
    const seen = dump.tasks[QUEUE]!.scheduled;
    expect(seen.map((t) => [t.id, t.state, t.nextProcessAt])).toEqual([
      [early, 'scheduled', earlyAt],
      [stay, 'scheduled', seen[1]!.nextProcessAt],
      [late, 'scheduled', lateAt],
    ]);
    expect(seen[1]!.id).toBe(stay);

    const calls = await goProcess(DB, { queues: [QUEUE], seconds: 8 });
    expect(calls.map((c) => c.id)).toEqual([early]);
    // The forwarder (every second here) moved it once its new score had passed.
    expect(calls[0]!.receivedAtUnixMs).toBeGreaterThanOrEqual(earlyAt * 1000);
    expect(await redis.zscore(zset, late)).toBe(String(lateAt));
    expect(await redis.zscore(zset, stay)).not.toBeNull();
  });
});
