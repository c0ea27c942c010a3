/**
 * A Redis that serves reads but refuses writes: `min-replicas-to-write` without enough replicas
 * (NOREPLICAS; how a master is told to stop taking writes once its replica has been promoted by
 * a failover), `maxmemory` reached with noeviction (OOM) and a snapshot that failed with
 * stop-writes-on-bgsave-error on (MISCONF). A refused change answers 503
 * `refused` naming the server and Redis' own words, says that nothing was changed, and indeed
 * nothing is: single changes and bulk ones alike. Reads go on answering 200.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleRoutes, type ConsoleRoutes } from '../../support/console-routes';
import { startRedisServer, type RunningRedis } from '../../../scripts/support/redis-server';
import { get, post, waitFor } from './helpers';

let server: RunningRedis;
let admin: Redis;
let r: ConsoleRoutes;

beforeAll(async () => {
  // Protected configs on, so that the test can point `dir` somewhere unwritable.
  server = await startRedisServer({ label: 'write-refused', args: ['--enable-protected-configs', 'yes'] });
  process.env.REDIS_URL = `${server.url}/0`;
  admin = new Redis(server.url);
  r = await consoleRoutes();
  for (const id of ['a', 'b', 'c']) {
    const res = await post(r.tasks.POST, { qname: 'mail' }, { type: 'email', options: { taskId: id } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
});

afterAll(async () => {
  admin?.disconnect();
  await server?.stop();
});

/** Every key and its type: what "nothing was changed" is checked against. */
async function snapshot(): Promise<Record<string, string>> {
  const keys = (await admin.keys('*')).sort();
  return Object.fromEntries(await Promise.all(keys.map(async (key) => [key, `${await admin.type(key)}:${JSON.stringify(await dump(key))}`] as const)));
}
async function dump(key: string): Promise<unknown> {
  switch (await admin.type(key)) {
    case 'list': return admin.lrange(key, 0, -1);
    case 'set': return (await admin.smembers(key)).sort();
    case 'zset': return admin.zrange(key, 0, -1, 'WITHSCORES');
    case 'hash': return admin.hgetall(key);
    default: return admin.get(key);
  }
}

const enqueue = () => post(r.tasks.POST, { qname: 'mail' }, { type: 'email' });
const archiveAll = () => post(r.bulk.POST, { qname: 'mail' }, { action: 'archive', state: 'pending' });

/** Makes the server refuse writes; returns what puts it back. */
type Refusal = () => Promise<() => Promise<unknown>>;

const tooFewReplicas: Refusal = async () => {
  await admin.config('SET', 'min-replicas-to-write', '1');
  return () => admin.config('SET', 'min-replicas-to-write', '0');
};
const outOfMemory: Refusal = async () => {
  await admin.config('SET', 'maxmemory-policy', 'noeviction');
  await admin.config('SET', 'maxmemory', '1');
  return () => admin.config('SET', 'maxmemory', '0');
};
/** A snapshot that cannot be written (its dir is /proc), with stop-writes-on-bgsave-error on. */
const failedSnapshot: Refusal = async () => {
  const [, dir] = (await admin.config('GET', 'dir')) as [string, string];
  await admin.config('SET', 'save', '3600 1');
  await admin.config('SET', 'dir', '/proc');
  await admin.bgsave();
  await waitFor('the snapshot to fail', async () => /rdb_last_bgsave_status:err/.test(await admin.info('persistence')), 5000);
  return async () => {
    await admin.config('SET', 'dir', dir);
    await admin.config('SET', 'save', '');
  };
};

describe.each([
  ['too few replicas (min-replicas-to-write 1)', tooFewReplicas, /^NOREPLICAS /, [enqueue, archiveAll]],
  // Out of memory Redis refuses what may grow it: a script whose first write frees memory (the
  // archive's LREM) runs to its end, by Redis' rule for scripts, so only the enqueue is refused.
  ['maxmemory reached with noeviction', outOfMemory, /^OOM /, [enqueue]],
  ['a failed snapshot (stop-writes-on-bgsave-error)', failedSnapshot, /^MISCONF /, [enqueue, archiveAll]],
])('a Redis refusing writes: %s', (_what, refuse, words, changes) => {
  it('answers a change 503 refused, "Nothing was changed", and changes nothing; reads answer 200', async () => {
    const before = await snapshot();
    const restore = await refuse();
    try {
      for (const change of changes) {
        const res = await change();
        expect(res.status, JSON.stringify(res.body)).toBe(503);
        expect(res.body.error).toMatchObject({ code: 'redis_unavailable', reason: 'refused' });
        expect(res.body.error.outcome).toBeUndefined();
        const message = res.body.error.message as string;
        expect(message).toContain(`Redis at 127.0.0.1:${server.port}/0 is refusing the console: `);
        expect(message.slice(message.indexOf('refusing the console: ') + 22)).toMatch(words);
        expect(message).toMatch(/Nothing was changed\.$/);
      }
      const list = await get(r.queues.GET);
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      expect(list.body.queues).toMatchObject([{ queue: 'mail', pending: 3 }]);
    } finally {
      await restore();
    }
    expect(await snapshot()).toEqual(before);
  });
});
