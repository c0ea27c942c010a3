/**
 * Bulk actions at a smaller size (5,000 tasks): run-all archived, archive-all pending and
 * delete-all archived through our bulk route. Nothing is lost or duplicated (every ID is
 * checked where it ends, exactly once, with the matching state), and no script call of ours
 * takes more than 5 ms in Redis's own SLOWLOG.
 *
 * SLOWLOG is server-wide and other test files share the server, so our route's connection gets
 * a client name and only its entries are read; the log settings are restored afterwards.
 * SLOWLOG measures wall time, so a busy machine that preempts redis-server mid-script inflates
 * one call now and then (seen: 15–79 ms for one call whose siblings took 3 ms, while the whole
 * suite ran on 2 CPUs): each test may run again (retry 4). An unbatched or O(N) script is over
 * the limit on every attempt (asynq's one-script RunAll over these 5,000 tasks: ~15–30 ms).
 * (No Go needed: this measures our side only.)
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encodeTaskMessage } from '@/lib/asynq/codec';
import * as k from '@/lib/asynq/keys';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { openTestRedis } from '../../support/test-redis';
import { openApi, type Api } from './routes';

const DB = 27;
const QUEUE = 'bulk';
const N = 5_000;
/** Every 10th task is unique and still owns its lock. */
const UNIQUE_EVERY = 10;
const LIMIT_US = 5_000;
/** Archived tasks past 90 days beside an archive of one: each trim call takes at most 1 000. */
const ANCIENT = 30_000;
const CLIENT_NAME = `asynqlens-bulk-slowlog-${process.pid}`;

const ids = Array.from({ length: N }, (_, i) => `bulk-${String(i).padStart(5, '0')}`);
const isUnique = (i: number) => i % UNIQUE_EVERY === 0;
const lockOf = (id: string) => k.uniqueKey(QUEUE, 'ok:bulk', Buffer.from(id));

type SlowEntry = [number, number, number, Buffer[], Buffer, Buffer];

describe('bulk over 5,000 tasks: nothing lost or duplicated, no Redis call over 5 ms', () => {
  let api: Api;
  let redis: Redis;
  let saved: { threshold: string; maxLen: string } | undefined;
  const measured: string[] = [];

  beforeAll(async () => {
    redis = await openTestRedis(DB);
    api = await openApi(DB);
    const server = api.serverRedis();
    await server.ping();
    await server.client('SETNAME', CLIENT_NAME);
    const [, threshold] = (await redis.config('GET', 'slowlog-log-slower-than')) as string[];
    const [, maxLen] = (await redis.config('GET', 'slowlog-max-len')) as string[];
    saved = { threshold: threshold!, maxLen: maxLen! };
    await redis.config('SET', 'slowlog-max-len', '200000');
    await redis.config('SET', 'slowlog-log-slower-than', '0');
  });

  afterAll(async () => {
    if (saved) {
      await redis.config('SET', 'slowlog-log-slower-than', saved.threshold);
      await redis.config('SET', 'slowlog-max-len', saved.maxLen);
    }
    console.info(`[bulk-slowlog] ${N} tasks per action\n${measured.join('\n')}`);
    redis?.disconnect();
    api?.serverRedis().disconnect();
  });

  beforeEach(async () => {
    await redis.flushdb();
  });

  /** Writes the N tasks into `state` (pending list or archived zset) as asynq leaves them. */
  async function seed(state: 'pending' | 'archived'): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    for (let start = 0; start < N; start += 1000) {
      const p = redis.pipeline();
      p.sadd(k.ALL_QUEUES, QUEUE);
      for (let i = start; i < Math.min(start + 1000, N); i++) {
        const id = ids[i]!;
        const uniqueKey = isUnique(i) ? lockOf(id) : '';
        const msg = newTaskMessage({ id, queue: QUEUE, type: 'ok:bulk', payload: Buffer.from(id), uniqueKey });
        const fields: (string | Buffer)[] = ['msg', Buffer.from(encodeTaskMessage(msg)), 'state', state];
        if (uniqueKey) {
          fields.push('unique_key', uniqueKey);
          p.set(uniqueKey, id, 'EX', 3600);
        }
        if (state === 'pending') {
          fields.push('pending_since', String(BigInt(Date.now()) * 1_000_000n));
          p.lpush(k.pendingKey(QUEUE), id);
        } else {
          p.zadd(k.archivedKey(QUEUE), now - 100, id);
        }
        p.hset(k.taskKey(QUEUE, id), ...fields);
      }
      await p.exec();
    }
  }

  /** State of every task hash, in `ids` order (null when the hash is gone). */
  async function states(): Promise<(string | null)[]> {
    const p = redis.pipeline();
    for (const id of ids) p.hget(k.taskKey(QUEUE, id), 'state');
    return ((await p.exec()) ?? []).map(([, v]) => v as string | null);
  }

  /** Runs one bulk request and reads our connection's SLOWLOG entries for it. */
  async function bulkMeasured(label: string, body: { action: 'run' | 'archive' | 'delete'; state: string } | (() => ReturnType<Api['bulk']>)) {
    await redis.slowlog('RESET');
    const t0 = performance.now();
    const res = await (typeof body === 'function' ? body() : api.bulk(QUEUE, body));
    const ms = performance.now() - t0;
    const entries = (await redis.call('SLOWLOG', 'GET', '-1')) as SlowEntry[];
    const ours = entries.filter((e) => String(e[5]) === CLIENT_NAME);
    const scripts = ours.filter((e) => /^eval/i.test(String(e[3][0])));
    const maxScript = Math.max(0, ...scripts.map((e) => e[2]));
    const maxAny = Math.max(0, ...ours.map((e) => e[2]));
    measured.push(
      `${label}: ${ms.toFixed(0)} ms total, ${scripts.length} script calls, longest script ${maxScript} µs, ` +
        `longest call of any kind ${maxAny} µs; script calls (µs): ${scripts.map((e) => e[2]).join(', ')}`,
    );
    return { res, scripts, maxScript, maxAny };
  }

  it('run-all archived: every task ends in pending exactly once; no script call over 5 ms', { retry: 4 }, async () => {
    await seed('archived');
    expect(await redis.zcard(k.archivedKey(QUEUE)), 'archived before').toBe(N);

    const { res, scripts, maxScript } = await bulkMeasured('run-all archived', { action: 'run', state: 'archived' });

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body, 'bulk result').toMatchObject({ succeeded: N, failed: [], stopped: false });
    expect(scripts.length, 'script calls seen in SLOWLOG (batches of ≤ 500)').toBeGreaterThanOrEqual(N / 500);
    expect(maxScript, `longest script call (µs), limit ${LIMIT_US}`).toBeLessThan(LIMIT_US);

    const pending = await redis.lrange(k.pendingKey(QUEUE), 0, -1);
    expect(pending.length, 'pending list length').toBe(N);
    expect(new Set(pending).size, 'distinct IDs in pending (no duplicates)').toBe(N);
    expect([...pending].sort(), 'pending holds exactly the seeded IDs').toEqual(ids);
    expect(await redis.exists(k.archivedKey(QUEUE)), 'the archived zset is gone').toBe(0);
    const wrong = (await states()).flatMap((s, i) => (s === 'pending' ? [] : [`${ids[i]}: ${s}`]));
    expect(wrong, 'tasks whose hash does not say pending').toEqual([]);
    // Oldest archived first into pending, like asynq's RunAll (ZRANGE ascending, each LPUSHed).
    expect(pending[pending.length - 1], 'the tail (next to run)').toBe(ids[0]);
  });

  it('archive-all pending: every task ends in archived exactly once; no script call over 5 ms', { retry: 4 }, async () => {
    await seed('pending');
    expect(await redis.llen(k.pendingKey(QUEUE)), 'pending before').toBe(N);

    const { res, maxScript } = await bulkMeasured('archive-all pending', { action: 'archive', state: 'pending' });

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body, 'bulk result').toMatchObject({ succeeded: N, failed: [], trimmed: 0, stopped: false });
    expect(maxScript, `longest script call (µs), limit ${LIMIT_US}`).toBeLessThan(LIMIT_US);

    const archived = await redis.zrange(k.archivedKey(QUEUE), 0, -1);
    expect(archived.length, 'archived zset size').toBe(N);
    expect([...archived].sort(), 'archived holds exactly the seeded IDs').toEqual(ids);
    expect(await redis.exists(k.pendingKey(QUEUE)), 'the pending list is gone').toBe(0);
    const wrong = (await states()).flatMap((s, i) => (s === 'archived' ? [] : [`${ids[i]}: ${s}`]));
    expect(wrong, 'tasks whose hash does not say archived').toEqual([]);
    const locks = await redis.exists(...ids.filter((_, i) => isUnique(i)).map(lockOf));
    expect(locks, 'unique locks are untouched by archiving').toBe(N / UNIQUE_EVERY);
  });

  it('delete-all archived: every task and every lock it owned is gone; no script call over 5 ms', { retry: 4 }, async () => {
    await seed('archived');
    // One lock taken over by another task meanwhile: not ours to delete.
    await redis.set(lockOf(ids[0]!), 'someone-else', 'EX', 3600);

    const { res, maxScript } = await bulkMeasured('delete-all archived', { action: 'delete', state: 'archived' });

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body, 'bulk result').toMatchObject({ succeeded: N, failed: [], stopped: false });
    expect(maxScript, `longest script call (µs), limit ${LIMIT_US}`).toBeLessThan(LIMIT_US);

    expect(await redis.exists(k.archivedKey(QUEUE)), 'the archived zset is gone').toBe(0);
    const left = (await states()).flatMap((s, i) => (s === null ? [] : [`${ids[i]}: ${s}`]));
    expect(left, 'task hashes still present').toEqual([]);
    const locksLeft = ids.filter((_, i) => isUnique(i)).map(lockOf);
    expect(await redis.get(locksLeft[0]!), 'a lock held by another task stays').toBe('someone-else');
    expect(await redis.exists(...locksLeft.slice(1)), 'locks the deleted tasks owned').toBe(0);
  });
  it(`archive of one task beside ${ANCIENT} tasks archived over 90 days ago: every one trimmed with its hash, as asynq does; no script call over 5 ms`, { retry: 4 }, async () => {
    const old = Math.floor(Date.now() / 1000) - 91 * 86_400;
    for (let start = 0; start < ANCIENT; start += 1000) {
      const p = redis.pipeline();
      for (let i = start; i < Math.min(start + 1000, ANCIENT); i++) {
        const msg = newTaskMessage({ id: `old-${i}`, queue: QUEUE, type: 'ok:old', payload: Buffer.from(`old-${i}`) });
        p.hset(k.taskKey(QUEUE, msg.id), 'msg', Buffer.from(encodeTaskMessage(msg)), 'state', 'archived');
        p.zadd(k.archivedKey(QUEUE), old - i, msg.id);
      }
      await p.exec();
    }
    await seed('pending');

    const { res, scripts, maxScript } = await bulkMeasured(`archive one beside ${ANCIENT} stale`, () => api.taskAction(QUEUE, ids[0]!, 'archive'));

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await redis.zrange(k.archivedKey(QUEUE), 0, -1), 'the archive holds the one task archived').toEqual([ids[0]]);
    expect(scripts.length, 'script calls: the archive, then trims of at most 1 000').toBeGreaterThanOrEqual(ANCIENT / 1000);
    expect(maxScript, `longest script call (µs), limit ${LIMIT_US}`).toBeLessThan(LIMIT_US);
    const p = redis.pipeline();
    for (let i = 0; i < ANCIENT; i++) p.exists(k.taskKey(QUEUE, `old-${i}`));
    const hashes = ((await p.exec()) ?? []).filter(([, n]) => n === 1).length;
    expect(hashes, 'hashes of trimmed tasks left').toBe(0);
  });

  it('delete-all pending: every task gone, owned locks released (deliberately, unlike asynq); no script call over 5 ms', { retry: 4 }, async () => {
    await seed('pending');

    const { res, maxScript } = await bulkMeasured('delete-all pending', { action: 'delete', state: 'pending' });

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body, 'bulk result').toMatchObject({ succeeded: N, failed: [], stopped: false });
    expect(maxScript, `longest script call (µs), limit ${LIMIT_US}`).toBeLessThan(LIMIT_US);
    expect(await redis.exists(k.pendingKey(QUEUE)), 'the pending list is gone').toBe(0);
    const left = (await states()).flatMap((s, i) => (s === null ? [] : [`${ids[i]}: ${s}`]));
    expect(left, 'task hashes still present').toEqual([]);
    expect(await redis.exists(...ids.filter((_, i) => isUnique(i)).map(lockOf)), 'locks the deleted tasks owned').toBe(0);
  });
});
