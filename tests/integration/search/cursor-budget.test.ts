/**
 * The scan's promises: a request never reads more than its budget (checked by counting, under
 * MONITOR, the HGETs Redis ran inside our scripts), it stops early once a page is full, a
 * cursor resumes exactly where the last page stopped, and a search can be stopped.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { searchTasks, type SearchFilter } from '@/lib/asynq';
import { encodeTaskMessage } from '@/lib/asynq/codec';
import * as k from '@/lib/asynq/keys';
import { json, newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedAggregating, seedZset } from '@/lib/asynq/testutil/seed';
import type { TaskMessage } from '@/lib/asynq/types';
import { countCommands } from '../../support/command-counter';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import { openSearchApi, type SearchApi } from './api';

const DB = 61;
let redis: Redis;
let api: SearchApi;

beforeAll(async () => {
  redis = await openTestRedis(DB);
  api = await openSearchApi(DB);
});
afterAll(() => redis.quit());
beforeEach(() => redis.flushdb());

/** `n` pending tasks in `queue`, oldest first; every tenth has `{"hit":true}`. One pipeline. */
async function seedMany(queue: string, n: number, msg: (i: number) => Partial<TaskMessage> = () => ({})): Promise<string[]> {
  const p = redis.pipeline().sadd(k.ALL_QUEUES, queue);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const m = newTaskMessage({ type: 'bulk:task', queue, id: `${queue}-${String(i).padStart(6, '0')}`, payload: json({ i, hit: i % 10 === 0 }), ...msg(i) });
    ids.push(m.id);
    p.hset(k.taskKey(queue, m.id), 'msg', Buffer.from(encodeTaskMessage(m)), 'state', 'pending', 'pending_since', '1');
    p.lpush(k.pendingKey(queue), m.id);
  }
  await p.exec();
  return ids;
}

const HIT: SearchFilter = { payloadFields: [{ path: ['hit'], value: 'true' }] };

describe('scan budget', () => {
  it('a request reads at most 5,000 tasks (1,000 per script call), and says how far it got', async () => {
    await seedMany('big', 12_000);
    let cursor: string | null = null;
    const progress: number[] = [];
    do {
      const { result, scriptCommands, commands } = await countCommands(testRedisUrl(DB), DB, () =>
        api.page({ type: 'no:such:type' }, cursor ? { cursor } : {}),
      );
      expect(result.status).toBe(200);
      const hgets = scriptCommands.filter((c) => c === 'hget').length;
      expect(hgets, 'msgs read by this request').toBeLessThanOrEqual(5000);
      expect(commands.filter((c) => c === 'evalsha_ro').length, 'script calls (≤ 1,000 tasks each)').toBeGreaterThanOrEqual(Math.ceil(hgets / 1000));
      expect(result.body.total).toBe(12_000);
      progress.push(result.body.scanned);
      cursor = result.body.cursor;
    } while (cursor !== null);
    expect(progress).toEqual([5000, 10_000, 12_000]);
  });

  it('the core reports what it read; a smaller budget is honoured exactly, prefetch included', async () => {
    await seedMany('big', 3000);
    const page = await searchTasks(redis, { types: ['none'] }, { budget: 1234, batchSize: 500 });
    expect(page).toMatchObject({ read: 1234, scanned: 1234, total: 3000, matched: 0 });
    expect(page.cursor).not.toBeNull();
  });

  it('stops early once the page is full when matches are common', async () => {
    await seedMany('big', 10_000);
    const page = await searchTasks(redis, HIT, { size: 20 });
    expect(page.tasks).toHaveLength(20);
    expect(page.scanned).toBe(191); // the 20th hit is task 190
    expect(page.read, 'one batch plus the prefetched one at most').toBeLessThanOrEqual(2000);
    expect(page.tasks.every((t) => t.state === 'pending' && t.queue === 'big' && t.message?.type === 'bulk:task')).toBe(true);
  });

  it('large msgs shrink a call instead of lengthening it (and nothing is skipped)', async () => {
    const big = 'x'.repeat(200 * 1024);
    await seedMany('fat', 30, (i) => ({ payload: json({ i, big, hit: i % 10 === 0 }) }));
    const { result, commands } = await countCommands(testRedisUrl(DB), DB, () => searchTasks(redis, HIT, { size: 100 }));
    expect(result.tasks.map((t) => t.id)).toEqual(['fat-000000', 'fat-000010', 'fat-000020']);
    expect(commands.filter((c) => c === 'evalsha_ro').length, 'at most ~3 msgs of 200 KiB per call').toBeGreaterThanOrEqual(10);
  });
});

describe('cursor', () => {
  async function mixedData() {
    await seedMany('q-a', 300);
    await seedMany('q-c', 200);
    const now = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 40; i++) {
      await seedZset(redis, 'retry', newTaskMessage({ type: 'bulk:task', queue: 'q-a', payload: json({ hit: i % 3 === 0 }), retried: 1 }), now + i);
      await seedAggregating(redis, newTaskMessage({ type: 'bulk:task', queue: 'q-c', groupKey: `g${i % 4}`, payload: json({ hit: i % 2 === 0 }) }), now + i);
    }
  }

  async function pagesOf(filter: SearchFilter, size: number, budget?: number) {
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const p = await searchTasks(redis, filter, { size, budget, cursor });
      ids.push(...p.tasks.map((t) => `${t.queue}/${t.state}/${t.id}`));
      cursor = p.cursor ?? undefined;
      pages++;
    } while (cursor);
    return { ids, pages };
  }

  it('small pages resumed from cursors give exactly the one-pass result, in the same order', async () => {
    await mixedData();
    const whole = await pagesOf(HIT, 100, 100_000);
    expect(whole.ids.length).toBe(30 + 20 + 14 + 20);
    const paged = await pagesOf(HIT, 7, 150);
    expect(paged.pages).toBeGreaterThan(12);
    expect(paged.ids).toEqual(whole.ids);
    // Listing order: queues by name, pending oldest first, zsets by score, groups by name.
    expect(whole.ids[0]).toBe('q-a/pending/q-a-000000');
    expect(whole.ids.findIndex((x) => x.includes('/retry/'))).toBeLessThan(whole.ids.findIndex((x) => x.startsWith('q-c')));
  });

  it('carries the queue name, so a queue created meanwhile before the position does not shift it', async () => {
    await mixedData();
    const first = await searchTasks(redis, HIT, { size: 35 });
    expect(first.tasks.at(-1)?.state).toBe('retry');
    await seedMany('q-0-new', 50);
    const rest = await pagesOf(HIT, 100);
    const second = await searchTasks(redis, HIT, { size: 100, cursor: first.cursor! });
    expect(second.tasks.some((t) => t.queue === 'q-0-new')).toBe(false);
    expect(new Set([...first.tasks, ...second.tasks].map((t) => t.id)).size).toBe(first.tasks.length + second.tasks.length);
    expect(second.total, 'total stays the one measured at the start').toBe(first.total);
    expect(rest.ids.filter((x) => x.startsWith('q-0-new'))).toHaveLength(5);
  });

  it('a search stops when its signal aborts (between Redis calls)', async () => {
    await seedMany('big', 5000);
    const ac = new AbortController();
    ac.abort();
    const page = await searchTasks(redis, { types: ['none'] }, { signal: ac.signal });
    expect(page.read).toBe(0);
    expect(page.cursor).not.toBeNull();
  });
});

describe('tasks whose record is damaged are listed, never dropped', () => {
  it('an ID without a hash matches a queue/state filter, flagged; a msg filter skips it', async () => {
    await seedMany('q', 2);
    await redis.rpush(k.pendingKey('q'), 'ghost');
    const listed = await api.all({ queue: 'q' });
    const ghost = listed.tasks.find((t) => t.id === 'ghost');
    expect(ghost).toMatchObject({ queue: 'q', state: 'pending', problem: 'task hash missing' });
    expect((await api.all({ type: 'bulk:task' })).tasks.map((t) => t.id)).not.toContain('ghost');
  });
});
