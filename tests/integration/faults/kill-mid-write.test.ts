/**
 * The core never leaves a task half-written when Redis dies mid-call. Redis runs with
 * `appendonly yes` and `appendfsync always` (every acknowledged write is on disk; a script's
 * effects land as one MULTI/EXEC, which a restart drops whole if it was cut), and is SIGKILLed
 * while the core's write paths run at once: single enqueues (plain, unique, scheduled, unique
 * scheduled, grouped), batch enqueues, archives of one task that each leave thousands of
 * archived tasks to trim in calls of their own, and an archive-all. After the restart on the
 * same files, every task hash must sit in the structure its state names, and every member of
 * every structure must have a hash saying so. Three rounds, each killed at another moment.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchEnqueue } from '@/lib/asynq/client/batch-enqueue';
import { enqueueTask } from '@/lib/asynq/client/enqueue';
import { encodeTaskMessage } from '@/lib/asynq/codec';
import * as k from '@/lib/asynq/keys';
import { bulkAll } from '@/lib/asynq/mutations/bulk';
import { moveTask } from '@/lib/asynq/mutations/task-actions';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { startRedisServer, type RunningRedis } from '../../../scripts/support/redis-server';
import { report, sleep, waitFor } from './helpers';

const ARGS = ['--appendonly', 'yes', '--appendfsync', 'always'];
const DAY = 86_400;
/** Archived tasks past 90 days per trimming queue: each archive there trims them in many calls. */
const STALE = 10_000;
const ZSET_STATES = ['scheduled', 'retry', 'archived', 'completed'] as const;

let dir: string;
let server: RunningRedis;
let admin: Redis;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'asynqlens-kill-'));
  server = await startRedisServer({ label: 'kill-mid-write', dir, args: ARGS });
  admin = new Redis(server.url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  admin.disconnect();
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

/** A client like the console's: never resends a command whose reply was lost. */
async function writer(): Promise<Redis> {
  const r = new Redis(server.url, { maxRetriesPerRequest: 0, enableOfflineQueue: false, autoResendUnfulfilledCommands: false, retryStrategy: () => null });
  r.on('error', () => {}); // the kill is expected; each call's own rejection is what counts
  if (r.status !== 'ready') await new Promise((resolve) => r.once('ready', resolve));
  return r;
}

async function seedStale(q: string): Promise<void> {
  const old = Math.floor(Date.now() / 1000) - 91 * DAY;
  for (let start = 0; start < STALE; start += 2000) {
    const p = admin.pipeline().sadd(k.ALL_QUEUES, q);
    for (let i = start; i < Math.min(start + 2000, STALE); i++) {
      const m = newTaskMessage({ id: `stale-${i}`, queue: q, type: 'old' });
      p.hset(k.taskKey(q, m.id), 'msg', Buffer.from(encodeTaskMessage(m)), 'state', 'archived');
      p.zadd(k.archivedKey(q), old - i, m.id);
    }
    await p.exec();
  }
}

/** Runs `step` until it throws (Redis gone); counts the steps that completed. */
async function untilDown(step: (i: number) => Promise<unknown>): Promise<number> {
  let i = 0;
  try {
    for (;;) await step(i++);
  } catch {
    return i - 1;
  }
}

/** Every queue's every task hash and structure member, held against each other. */
async function inconsistencies(r: Redis): Promise<string[]> {
  const out: string[] = [];
  const queues = new Set<string>(await r.smembers(k.ALL_QUEUES));
  // Hashes of queues no longer registered count too: find queues from the task keys.
  let cursor = '0';
  const taskKeys: string[] = [];
  do {
    const [next, keys] = await r.scan(cursor, 'MATCH', 'asynq:{*}:t:*', 'COUNT', 10_000);
    taskKeys.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  const byQueue = new Map<string, string[]>();
  for (const key of taskKeys) {
    const m = /^asynq:\{(.*)\}:t:(.*)$/.exec(key);
    if (!m) continue;
    queues.add(m[1]!);
    byQueue.set(m[1]!, [...(byQueue.get(m[1]!) ?? []), m[2]!]);
  }
  for (const q of queues) {
    const ids = byQueue.get(q) ?? [];
    const p = r.pipeline();
    for (const id of ids) p.hmget(k.taskKey(q, id), 'state', 'group');
    const fields = ((await p.exec()) ?? []).map(([, v]) => v as [string | null, string | null]);
    const members = new Map<string, Set<string>>();
    members.set('pending', new Set(await r.lrange(k.pendingKey(q), 0, -1)));
    members.set('active', new Set(await r.lrange(k.activeKey(q), 0, -1)));
    for (const s of ZSET_STATES) members.set(s, new Set(await r.zrange(k.stateKey(q, s), 0, -1)));
    for (const g of await r.smembers(k.allGroups(q))) members.set(`g:${g}`, new Set(await r.zrange(k.groupKey(q, g), 0, -1)));
    const hashState = new Map<string, string>();
    ids.forEach((id, i) => {
      const [state, group] = fields[i] ?? [null, null];
      const where = state === 'aggregating' ? `g:${group}` : String(state);
      hashState.set(id, where);
      if (!members.get(where)?.has(id)) out.push(`${q}: task ${id} says ${where} but is not there`);
    });
    for (const [where, set] of members) {
      for (const id of set) if (hashState.get(id) !== where) out.push(`${q}: ${where} holds ${id}, whose hash says ${hashState.get(id) ?? 'nothing'}`);
    }
  }
  return out;
}

describe('a Redis killed mid-write leaves no task half-written (appendfsync always)', () => {
  it('the check itself sees a hash without its structure and a member without its hash', async () => {
    await admin.flushall();
    await admin.sadd(k.ALL_QUEUES, 'probe');
    await admin.hset(k.taskKey('probe', 'lonely'), 'state', 'pending');
    await admin.zadd(k.scheduledKey('probe'), 1, 'ghost');
    expect((await inconsistencies(admin)).sort()).toEqual([
      'probe: scheduled holds ghost, whose hash says nothing',
      'probe: task lonely says pending but is not there',
    ]);
  });

  it.each([[100], [250], [500]])('killed %i ms into the writes: every task whole after the restart', async (killAfterMs) => {
    await admin.flushall();
    for (const q of ['trim-a', 'trim-b']) await seedStale(q);
    const pendingFor = async (q: string, n: number) => {
      const items = Array.from({ length: n }, (_, i) => ({ task: { type: 'p', payload: Buffer.from(`${q}-${i}`) }, options: { queue: q } }));
      await batchEnqueue(admin, items, new Date());
    };
    await pendingFor('trim-a', 50);
    await pendingFor('trim-b', 50);
    await pendingFor('bulk', 10_000);
    expect(await inconsistencies(admin), 'consistent before the writes').toEqual([]);

    const clients = await Promise.all(Array.from({ length: 5 }, writer));
    const [c1, c2, c3, c4, c5] = clients as [Redis, Redis, Redis, Redis, Redis];
    const now = () => new Date();
    const work = Promise.all([
      untilDown((i) => {
        const kind = i % 5;
        const opts = [{}, { uniqueTtlSeconds: 60 }, { processInSeconds: 600 }, { uniqueTtlSeconds: 60, processInSeconds: 600 }, { group: `g${i % 3}` }][kind]!;
        return enqueueTask(c1, { type: `single:${kind}`, payload: Buffer.from(`s-${i}`) }, { queue: 'single', ...opts }, now());
      }),
      untilDown((i) =>
        batchEnqueue(c2, Array.from({ length: 200 }, (_, j) => ({ task: { type: 'batch', payload: Buffer.from(`b-${i}-${j}`) }, options: { queue: `batch-${j % 4}`, ...(j % 2 ? { processInSeconds: 60 } : {}) } })), now()),
      ),
      // Each archive trims 10 000 stale tasks (dozens of calls): the kill lands inside a trim.
      untilDown(async (i) => {
        const q = i % 2 ? 'trim-b' : 'trim-a';
        const [id] = await c3.lrange(k.pendingKey(q), -1, -1);
        if (id) await moveTask(c3, q, id, 'archive', now());
        else await sleep(1);
      }),
      untilDown(() => bulkAll(c4, 'bulk', 'archive', 'pending', { now })),
      untilDown((i) => enqueueTask(c5, { type: 'unique', payload: Buffer.from(`u-${i % 50}`) }, { queue: 'single', uniqueTtlSeconds: 5 }, now()).catch((err: unknown) => {
        if ((err as { code?: string }).code !== 'duplicate_task') throw err;
      })),
    ]);
    await sleep(killAfterMs);
    await server.kill();
    const steps = await work;
    clients.forEach((c) => c.disconnect());
    report(`killed after ${killAfterMs} ms; completed steps per writer: ${steps.join(', ')}`);

    admin.disconnect();
    server = await startRedisServer({ label: 'kill-mid-write', dir, port: server.port, args: ARGS });
    admin = new Redis(server.url, { maxRetriesPerRequest: 1 });
    await waitFor('Redis loaded its AOF', async () => (await admin.ping()) === 'PONG');
    expect(steps.some((n) => n > 0), 'writes had landed before the kill').toBe(true);
    const archivedNow = (await admin.zcard(k.archivedKey('trim-a'))) + (await admin.zcard(k.archivedKey('trim-b')));
    report(`after the restart: ${archivedNow} archived in the trimming queues (of ${2 * STALE} stale), ${await admin.llen(k.pendingKey('bulk'))} pending in bulk, ${await admin.dbsize()} keys`);
    expect(await inconsistencies(admin), 'task hashes and structures after the restart').toEqual([]);
  });
});
