/**
 * A task that fails for good, archived by Go's server in one database and by ours in another,
 * each beside an archive with more to trim than one short call takes (the archive script
 * trims up to 1 000 itself): 1 500 tasks archived more than 90 days ago, and an archive of
 * 11 500 (past asynq's 9 999, as a writer that does not trim can leave it). asynq's worker trims it all in its archive script; ours trims the rest
 * in calls of their own. Both must end with the same archive, hashes included.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTaskMessage } from '@/lib/asynq/codec';
import * as k from '@/lib/asynq/keys';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { Server } from '@/lib/asynq/worker';
import { openTestRedis } from '../../support/test-redis';
import { waitFor } from '../../integration/worker/helpers';
import { ASYNQ, goHarness, redisArgs } from '../go-harness';
import { interopConfig, interopMux } from './handlers';

const GO_DB = 103;
const TS_DB = 104;
const DAY = 86_400;
const asynqGo = goHarness('worker-archive-trim');
asynqGo.requireGo('worker archive trim interop');

const T0 = Math.floor(Date.now() / 1000);
const SETS = {
  stale: { count: 1_500, score: (i: number) => T0 - 91 * DAY - i },
  full: { count: 11_500, score: (i: number) => T0 - 80 * DAY + i },
} as const;
type Q = keyof typeof SETS;

async function seedArchive(redis: Redis, q: Q): Promise<void> {
  const { count, score } = SETS[q];
  const p = redis.pipeline();
  for (let i = 0; i < count; i++) {
    const m = newTaskMessage({ id: `${q}${i}`, queue: q, type: 'gave:up', retried: 25, errorMsg: 'gave up', lastFailedAt: score(i) });
    p.hset(k.taskKey(q, m.id), 'msg', Buffer.from(encodeTaskMessage(m)), 'state', 'archived');
    p.zadd(k.archivedKey(q), score(i), m.id);
  }
  await p.exec();
}

/** The archive's size, its members older than 90 days, and the seeded hashes still there. */
async function archiveShape(redis: Redis, q: Q) {
  const { count } = SETS[q];
  const exists = await redis.pipeline(Array.from({ length: count }, (_, i) => ['exists', k.taskKey(q, `${q}${i}`)])).exec();
  const hashes = (exists ?? []).filter(([, n]) => n === 1).length;
  const members = await redis.zrange(k.archivedKey(q), 0, -1);
  const seededLeft = members.filter((m) => m.startsWith(q)).length;
  return {
    size: await redis.zcard(k.archivedKey(q)),
    olderThan90Days: await redis.zcount(k.archivedKey(q), '-inf', T0 - 90 * DAY),
    failedTaskArchived: (await redis.hget(k.taskKey(q, `fail-${q}`), 'state')) === 'archived',
    seededHashes: hashes,
    seededMembers: seededLeft,
  };
}

describe.skipIf(asynqGo.noGo)(`archive trimming after a final failure: our server vs Go’s (asynq ${ASYNQ.version})`, () => {
  let goRedis: Redis;
  let tsRedis: Redis;

  beforeAll(async () => {
    [goRedis, tsRedis] = await Promise.all([openTestRedis(GO_DB), openTestRedis(TS_DB)]);
    const requests = (Object.keys(SETS) as Q[]).map((q) => ({ queue: q, type: 'fail:b', payloadBase64: null, options: { taskId: `fail-${q}`, maxRetry: 0 } }));
    for (const [db, redis] of [[GO_DB, goRedis], [TS_DB, tsRedis]] as const) {
      for (const q of Object.keys(SETS) as Q[]) await seedArchive(redis, q);
      const res = await asynqGo.json<{ ok: boolean; error?: string }[]>('enqueue-many', redisArgs(db), { stdin: requests });
      expect(res.filter((r) => !r.ok)).toEqual([]);
    }
    const goServe = await asynqGo.start('serve', [...redisArgs(GO_DB), '--queues', 'stale:1,full:1', '--concurrency', '2', '--retry-delay-seconds', '3600']);
    const ours = new Server(tsRedis, { ...interopConfig(), queues: { stale: 1, full: 1 } });
    await ours.start(interopMux(tsRedis));
    try {
      const archived = async (r: Redis) =>
        (await Promise.all((Object.keys(SETS) as Q[]).map((q) => r.hget(k.taskKey(q, `fail-${q}`), 'state')))).every((s) => s === 'archived');
      await waitFor('both servers archived both failing tasks', async () => (await archived(goRedis)) && (await archived(tsRedis)), 30_000);
    } finally {
      await Promise.all([goServe.stop(), ours.shutdown()]);
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all([goRedis?.quit(), tsRedis?.quit()]);
  });

  // Go's hashes of the dropped tasks: gone since v0.25; v0.24's server leaves them (ours never does).
  const goHashes = (kept: number, seeded: number) => (ASYNQ.trimDeletesHashes ? kept : seeded);

  it('1 500 archived tasks older than 90 days: all gone on both, with their hashes (Go since v0.25)', async () => {
    const ours = { size: 1, olderThan90Days: 0, failedTaskArchived: true, seededHashes: 0, seededMembers: 0 };
    expect(await archiveShape(goRedis, 'stale')).toEqual({ ...ours, seededHashes: goHashes(0, 1_500) });
    expect(await archiveShape(tsRedis, 'stale')).toEqual(ours);
  });

  it('an archive of 11 500: back to the newest 9 999 on both, the dropped tasks’ hashes deleted (Go since v0.25)', async () => {
    const ours = { size: 9_999, olderThan90Days: 0, failedTaskArchived: true, seededHashes: 9_998, seededMembers: 9_998 };
    expect(await archiveShape(goRedis, 'full')).toEqual({ ...ours, seededHashes: goHashes(9_998, 11_500) });
    expect(await archiveShape(tsRedis, 'full')).toEqual(ours);
    // The same members: the lowest-scored went on both sides.
    expect(await tsRedis.zrange(k.archivedKey('full'), 0, -1)).toEqual(await goRedis.zrange(k.archivedKey('full'), 0, -1));
  });
});
