/**
 * Lock listing on a real Redis: every finding, the holder's state and TTL, paging with the
 * SCAN cursor, queue names with glob characters, the cross-queue view, and the HTTP routes.
 */
import { describe, expect, it } from 'vitest';
import { keys as k, listAllLocks, listQueueLocks, type LockInfo } from '@/lib/asynq';
import { json, newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedActive, seedAggregating, seedLock, seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import type { TaskMessage } from '@/lib/asynq';
import { callRoute } from '../../support/call-route';
import { useConsoleRoutes } from '../../support/console-routes';

/** An API time as findings write it: `2026-11-30 03:10:16 UTC`. */
const utc = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

const DB = 50;
const { redis, routes } = await useConsoleRoutes(DB);

const nowSec = () => Math.floor(Date.now() / 1000);

/** A unique task message whose lock key is asynq's for (queue, type, payload). */
function unique(queue: string, type: string, payload: unknown, over: Partial<TaskMessage> = {}): TaskMessage {
  const bytes = json(payload);
  return newTaskMessage({ type, queue, payload: bytes, uniqueKey: k.uniqueKey(queue, type, bytes), ...over });
}

async function allPages(list: (cursor?: string) => Promise<{ locks: LockInfo[]; cursor: string | null }>): Promise<Map<string, LockInfo>> {
  const out = new Map<string, LockInfo>();
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await list(cursor);
    for (const l of page.locks) out.set(l.key, l);
    cursor = page.cursor ?? undefined;
    expect(++pages).toBeLessThan(1000);
  } while (cursor !== undefined);
  return out;
}

describe('listQueueLocks', () => {
  it('lists each lock with its holder, TTL and findings', async () => {
    const q = 'locks';
    const healthy = unique(q, 'email:send', { to: 'a' });
    await seedPending(redis, healthy);
    await seedLock(redis, healthy.uniqueKey, healthy.id, 600);
    const archived = unique(q, 'fail:x', { n: 1 });
    await seedZset(redis, 'archived', archived, nowSec());
    await seedLock(redis, archived.uniqueKey, archived.id, 3600);
    const retrying = unique(q, 'retry:x', { n: 2 }, { retry: 10, retried: 2 });
    const retryAt = nowSec() + 30;
    await seedZset(redis, 'retry', retrying, retryAt);
    await seedLock(redis, retrying.uniqueKey, retrying.id, 60);
    const gone = unique(q, 'gone:x', { n: 3 });
    await seedLock(redis, gone.uniqueKey, gone.id, 120);
    const done = unique(q, 'done:x', { n: 4 }, { completedAt: nowSec(), retention: 3600 });
    await seedZset(redis, 'completed', done, nowSec() + 3600);
    await seedLock(redis, done.uniqueKey, done.id, 120);
    const forever = unique(q, 'forever', { n: 5 });
    await seedPending(redis, forever);
    await seedLock(redis, forever.uniqueKey, forever.id);
    const stranger = unique(q, 'stranger', { n: 6 });
    const other = newTaskMessage({ type: 'plain', queue: q }); // not unique at all
    await seedPending(redis, other);
    await seedLock(redis, stranger.uniqueKey, other.id, 90);

    const locks = await allPages((cursor) => listQueueLocks(redis, q, { cursor }));
    const codes = Object.fromEntries([...locks.values()].map((l) => [l.taskType, l.findings.map((f) => f.code)]));
    expect(codes).toEqual({
      'email:send': [],
      'fail:x': ['held_by_archived'],
      'retry:x': ['expires_before_retries_end'],
      'gone:x': ['orphaned'],
      'done:x': ['orphaned'],
      forever: ['no_expiry'],
      stranger: ['orphaned'],
    });
    const h = locks.get(healthy.uniqueKey)!;
    expect(h).toMatchObject({ queue: q, holderId: healthy.id, holderState: 'pending', payloadMd5: healthy.uniqueKey.slice(-32) });
    expect(h.ttlSeconds).toBeGreaterThan(595);
    expect(h.ttlSeconds).toBeLessThanOrEqual(600);
    expect(locks.get(forever.uniqueKey)).toMatchObject({ ttlSeconds: -1, expiresAt: null });
    expect(locks.get(gone.uniqueKey)).toMatchObject({ holderState: null });
    const r = locks.get(retrying.uniqueKey)!;
    expect(r.holder).toMatchObject({ state: 'retry', retried: 2, maxRetry: 10 });
    expect(r.holder.nextAttemptAt?.getTime()).toBe(retryAt * 1000);
    expect(r.findings[0]!.message).toMatch(/may still be retrying until ~\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
  });

  it('reads the key a grouped unique task names only in its msg, and sees a live active holder', async () => {
    const q = 'grouped';
    const m = unique(q, 'agg', { n: 1 }, { groupKey: 'g1' });
    await seedAggregating(redis, m); // like AddToGroupUnique: no unique_key hash field
    await seedLock(redis, m.uniqueKey, m.id, 100);
    const a = unique(q, 'act', { n: 2 });
    await seedActive(redis, a);
    await redis.hset(k.taskKey(q, a.id), 'unique_key', a.uniqueKey);
    await seedLock(redis, a.uniqueKey, a.id, 100);
    const locks = (await listQueueLocks(redis, q)).locks;
    expect(locks.map((l) => [l.holderState, l.findings])).toEqual(expect.arrayContaining([['aggregating', []], ['active', []]]));
  });

  it('pages with the SCAN cursor and finds every lock exactly once', async () => {
    const q = 'many';
    const p = redis.pipeline();
    for (let i = 0; i < 700; i++) p.set(k.uniqueKey(q, 't', json({ i })), `holder-${i}`, 'EX', 100);
    for (let i = 0; i < 3000; i++) p.set(`noise:${i}`, 'x');
    await p.exec();
    let pages = 0;
    const locks = await allPages(async (cursor) => {
      pages++;
      const page = await listQueueLocks(redis, q, { cursor, limit: 50, count: 100 });
      expect(page.locks.length).toBeLessThanOrEqual(50 + 100);
      return page;
    });
    expect(locks.size).toBe(700);
    expect(pages).toBeGreaterThan(5);
    expect([...locks.values()].every((l) => l.findings[0]?.code === 'orphaned')).toBe(true);
  });

  it('matches only its own queue, whatever glob characters the names hold', async () => {
    const names = ['a*', 'ab', 'a?', 'a[b]', 'a\\', 'x:{y}'];
    for (const q of names) await seedLock(redis, k.uniqueKey(q, 't', json({ q })), `h-${q}`, 100);
    for (const q of names) {
      const locks = (await listQueueLocks(redis, q)).locks;
      expect(locks.map((l) => l.holderId), q).toEqual([`h-${q}`]);
      expect(locks[0]!.taskType).toBe('t');
    }
  });

  it('lists the locks of every queue, removed queues included', async () => {
    await redis.sadd(k.ALL_QUEUES, 'a', 'a:b');
    await seedLock(redis, k.uniqueKey('a', 't1', null), 'h1', 100);
    await seedLock(redis, k.uniqueKey('a:b', 't2', null), 'h2', 100);
    await seedLock(redis, k.uniqueKey('removed', 't3', null), 'h3', 100);
    await redis.set(k.pendingKey('a'), 'not a lock');
    const locks = await allPages((cursor) => listAllLocks(redis, { cursor }));
    expect([...locks.values()].map((l) => [l.queue, l.taskType, l.payloadMd5]).sort()).toEqual([
      ['a', 't1', ''], ['a:b', 't2', ''], ['removed', 't3', ''],
    ]);
  });
});

describe('GET /api/queues/{q}/locks and /api/locks', () => {
  it('answers the documented shape, page by page', async () => {
    const m = unique('web', 'fail:x', { n: 1 });
    await seedZset(redis, 'archived', m, nowSec());
    await seedLock(redis, m.uniqueKey, m.id, 3600);
    const res = await callRoute(routes.locks.GET, '/api/queues/web/locks', { qname: 'web' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      cursor: null,
      locks: [{
        queue: 'web', key: m.uniqueKey, taskType: 'fail:x', payloadMd5: m.uniqueKey.slice(-32),
        ttlSeconds: expect.any(Number), expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        holderId: m.id, holderState: 'archived', holderRetried: null, holderMaxRetry: null, holderNextAttemptAt: null,
        findings: [{ code: 'held_by_archived', message: expect.stringContaining(utc(res.body.locks[0].expiresAt)) }],
      }],
    });
    const all = await callRoute(routes.allLocks.GET, '/api/locks');
    expect(all.body.locks.map((l: { key: string }) => l.key)).toEqual([m.uniqueKey]);
  });

  it('answers for one lock by key (the lock a task names), empty when it is gone', async () => {
    const m = unique('web', 'retry:x', { n: 1 }, { retry: 3, retried: 1 });
    await seedZset(redis, 'retry', m, nowSec() + 5);
    await seedLock(redis, m.uniqueKey, m.id, 600);
    await seedLock(redis, k.uniqueKey('web', 'other', null), 'x', 600);
    const one = await callRoute(routes.locks.GET, `/api/queues/web/locks?key=${encodeURIComponent(m.uniqueKey)}`, { qname: 'web' });
    expect(one.body).toMatchObject({ cursor: null, locks: [{ key: m.uniqueKey, holderId: m.id, holderState: 'retry', holderRetried: 1, holderMaxRetry: 3 }] });
    expect(one.body.locks).toHaveLength(1);
    const gone = await callRoute(routes.locks.GET, `/api/queues/web/locks?key=${encodeURIComponent(k.uniqueKey('web', 'nope', null))}`, { qname: 'web' });
    expect(gone.body).toEqual({ locks: [], cursor: null });
    const foreign = await callRoute(routes.locks.GET, `/api/queues/web/locks?key=${encodeURIComponent(k.uniqueKey('other', 't', null))}`, { qname: 'web' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.field).toBe('key');
  });

  it('follows the cursor to the end and rejects a malformed one', async () => {
    const p = redis.pipeline();
    for (let i = 0; i < 500; i++) p.set(`noise:${i}`, 'x');
    for (let i = 0; i < 300; i++) p.set(k.uniqueKey('web', 't', json({ i })), `h${i}`);
    await p.exec();
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const path: string = `/api/queues/web/locks${cursor === null ? '' : `?cursor=${cursor}`}`;
      const res = await callRoute(routes.locks.GET, path, { qname: 'web' });
      expect(res.status).toBe(200);
      for (const l of res.body.locks) seen.add(l.key);
      cursor = res.body.cursor;
    } while (cursor !== null);
    expect(seen.size).toBe(300);
    const bad = await callRoute(routes.locks.GET, '/api/queues/web/locks?cursor=abc', { qname: 'web' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_argument', field: 'cursor' });
  });
});
