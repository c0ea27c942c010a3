/**
 * A bulk action cut short by a Redis crash loses nothing and half-moves nothing. Redis runs
 * with `appendonly yes` and `appendfsync always` (every acknowledged write is on disk), 30,000
 * tasks are seeded, archive-all (then run-all) starts through the route, Redis is SIGKILLed
 * once some batches have landed and restarted on the same dir and port. The route answers 503;
 * after the restart every seeded task is in exactly one place and its hash agrees; running the
 * action again finishes the job with exact totals.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as k from '@/lib/asynq/keys';
import { MAX_ARCHIVE_SIZE } from '@/lib/asynq/mutations/archive-limits';
import { checkArchiveAll, checkRunAll } from '../../../bench/bulk-verify';
import { seedBatches } from '../../../bench/seed';
import { taskId, type TaskBatch } from '../../../bench/task-message';
import { consoleRoutes } from '../../support/console-routes';
import { startRedisServer, type RunningRedis } from '../../../scripts/support/redis-server';
import { post, report, waitFor } from './helpers';

const COUNT = 30_000;
/** asynq keeps 9,999 archived tasks per queue (the newest); archiving more deletes the oldest. */
const ARCHIVE_CAP = MAX_ARCHIVE_SIZE - 1;
const ARGS = ['--appendonly', 'yes', '--appendfsync', 'always'];

let dir: string;
let server: RunningRedis;
let port: number;
let admin: Redis;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'asynqlens-aof-'));
  server = await startRedisServer({ label: 'bulk-aof', dir, args: ARGS });
  port = server.port;
  process.env.REDIS_URL = `${server.url}/0`;
  admin = new Redis(server.url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  admin.disconnect();
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

/**
 * Starts `action`-all over `queue` through the route and SIGKILLs Redis once `landed()` (read
 * on the admin connection, every few ms) passes `threshold`: some batches are then applied and
 * more are to come. Restarts Redis on the same dir; returns the route's answer.
 */
async function crashMidway(queue: string, action: 'archive' | 'run', state: string, landed: () => Promise<number>, threshold: number) {
  const { POST } = (await consoleRoutes()).bulk;
  const answer = post(POST, { qname: queue }, { action, state });
  const waited = await waitFor(`${threshold} tasks moved`, async () => (await landed()) >= threshold, 30_000, 2);
  await server.kill();
  report(`${action}-all: SIGKILL after`, waited);
  const res = await answer;
  admin.disconnect();
  server = await startRedisServer({ label: 'bulk-aof', dir, port, args: ARGS });
  admin = new Redis(server.url, { maxRetriesPerRequest: 1 });
  return res;
}

async function hashStates(queue: string, ids: readonly string[]): Promise<(string | null)[]> {
  const p = admin.pipeline();
  for (const id of ids) p.hget(k.taskKey(queue, id), 'state');
  return ((await p.exec()) ?? []).map(([err, v]) => {
    if (err) throw err;
    return v as string | null;
  });
}

async function taskHashes(queue: string): Promise<Set<string>> {
  const prefix = k.taskKeyPrefix(queue);
  const out = new Set<string>();
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 10_000);
    for (const key of keys) out.add(key.slice(prefix.length));
    cursor = next;
  } while (cursor !== '0');
  return out;
}

/**
 * Every seeded ID is in exactly one of pending / archived with a hash saying so, or (archive
 * trimming only) gone with its hash; nothing else is in either set and no hash is left behind.
 */
async function accountFor(batch: TaskBatch) {
  const q = batch.queue;
  const ids = Array.from({ length: batch.count }, (_, i) => taskId(batch, i + 1));
  const pending = await admin.lrange(k.pendingKey(q), 0, -1);
  const archived = await admin.zrange(k.archivedKey(q), 0, -1);
  const inPending = new Set(pending);
  const inArchived = new Set(archived);
  expect(inPending.size, 'no task twice in pending').toBe(pending.length);
  expect(pending.filter((id) => inArchived.has(id)), 'no task in both sets').toEqual([]);
  const seeded = new Set(ids);
  expect([...pending, ...archived].filter((id) => !seeded.has(id)), 'no unknown members').toEqual([]);
  const states = await hashStates(q, ids);
  const wrong: string[] = [];
  let gone = 0;
  ids.forEach((id, i) => {
    const want = inPending.has(id) ? 'pending' : inArchived.has(id) ? 'archived' : null;
    if (states[i] !== want) wrong.push(`${id}: hash says ${String(states[i])}, set says ${String(want)}`);
    if (want === null) gone++;
  });
  expect(wrong.slice(0, 5), `${wrong.length} hashes disagree with their set`).toEqual([]);
  const hashes = await taskHashes(q);
  expect(hashes.size, 'one hash per task in a set: no orphans, no extras').toBe(pending.length + archived.length);
  expect(pending.length + archived.length + gone).toBe(batch.count);
  return { pending: pending.length, archived: archived.length, gone };
}

describe('bulk actions interrupted by a Redis crash (appendfsync always)', () => {
  it('archive-all: 503, then every task accounted for after the restart, and a re-run finishes exactly', async () => {
    const batch: TaskBatch = { queue: 'crash-archive', state: 'pending', count: COUNT, idFormat: 'c1000000-0000-4000-8000-%012d' };
    await seedBatches(admin, [batch]);
    const res = await crashMidway(batch.queue, 'archive', 'pending', async () => COUNT - (await admin.llen(k.pendingKey(batch.queue))), 3000);
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ code: 'redis_unavailable', outcome: 'unknown' });
    expect(res.body.error.message).toContain(`127.0.0.1:${port}`);

    const mid = await accountFor(batch);
    report(`archive-all after the crash: pending ${mid.pending}, archived ${mid.archived}, trimmed ${mid.gone}`);
    expect(mid.pending).toBeGreaterThan(0);
    expect(mid.pending).toBeLessThan(COUNT - 3000 + 1);
    expect(mid.archived).toBeGreaterThan(0);
    // Only the archive cap removes tasks, and only beyond 9,999 archived.
    expect(mid.gone === 0 || mid.archived === ARCHIVE_CAP).toBe(true);

    const { POST } = (await consoleRoutes()).bulk;
    const again = await post(POST, { qname: batch.queue }, { action: 'archive', state: 'pending' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.succeeded).toBe(mid.pending);
    expect(again.body.failed).toEqual([]);
    const end = await accountFor(batch);
    expect(end).toEqual({ pending: 0, archived: ARCHIVE_CAP, gone: COUNT - ARCHIVE_CAP });
    expect((await checkArchiveAll(admin, batch, ARCHIVE_CAP, false)).problems).toEqual([]);
  });

  it('run-all: 503, then every task in exactly one of archived / pending, and a re-run finishes exactly', async () => {
    const batch: TaskBatch = { queue: 'crash-run', state: 'archived', count: COUNT, idFormat: 'c2000000-0000-4000-8000-%012d' };
    await seedBatches(admin, [batch]);
    const res = await crashMidway(batch.queue, 'run', 'archived', () => admin.llen(k.pendingKey(batch.queue)), 3000);
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ code: 'redis_unavailable', outcome: 'unknown' });

    const mid = await accountFor(batch);
    report(`run-all after the crash: pending ${mid.pending}, archived ${mid.archived}`);
    expect(mid.gone).toBe(0);
    expect(mid.pending).toBeGreaterThanOrEqual(3000);
    expect(mid.archived).toBeGreaterThan(0);

    const { POST } = (await consoleRoutes()).bulk;
    const again = await post(POST, { qname: batch.queue }, { action: 'run', state: 'archived' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.succeeded).toBe(mid.archived);
    expect(await accountFor(batch)).toEqual({ pending: COUNT, archived: 0, gone: 0 });
    expect((await checkRunAll(admin, batch)).problems).toEqual([]);
  });
});
