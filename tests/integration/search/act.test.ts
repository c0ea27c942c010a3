/**
 * POST /api/tasks/search/act: preview counts and run / archive / delete of every match, on
 * data written by asynq v0.26.0 and checked through Go's own Inspector afterwards; then the
 * chunked path (5,000 matches at a time while the scan goes on) on a larger TS-seeded queue.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTaskMessage } from '@/lib/asynq/codec';
import * as k from '@/lib/asynq/keys';
import { json, newTaskMessage } from '@/lib/asynq/testutil/factories';
import { snapshot } from '../../support/redis-snapshot';
import { openTestRedis } from '../../support/test-redis';
import { openSearchApi, type SearchApi } from './api';
import { goView, WORK, writeGoData } from './go-data';
import { asynqGo } from '../../interop/write/go';
import { key, matches, type Query } from './oracle';

const DB = 62;
asynqGo.requireGo('search/act.test.ts (data written by Go)');

const ACTIONABLE = {
  run: ['scheduled', 'retry', 'archived', 'completed', 'aggregating'],
  archive: ['pending', 'scheduled', 'retry', 'completed', 'aggregating'],
  delete: ['pending', 'scheduled', 'retry', 'archived', 'completed', 'aggregating'],
} as const;

let redis: Redis;
let api: SearchApi;

beforeAll(async () => {
  redis = await openTestRedis(DB);
  api = await openSearchApi(DB);
});
afterAll(() => redis?.quit());

describe.skipIf(asynqGo.noGo)('acting on matches, checked with asynq’s Inspector', () => {
  beforeAll(async () => {
    await redis.flushdb();
    await writeGoData(DB);
  });

  /** Go's view, and the keys of the tasks the action would take for filter `q`. */
  async function targets(q: Query, action: keyof typeof ACTIONABLE) {
    const before = await goView(DB);
    const hit = before.filter((t) => matches(t, q) && (ACTIONABLE[action] as readonly string[]).includes(t.state));
    return { before, hit };
  }

  it('preview counts what the action would touch and changes nothing', async () => {
    const q: Query = { typePrefix: 'fail:' };
    const { hit } = await targets(q, 'run');
    expect(hit.length).toBeGreaterThanOrEqual(3);
    const before = await snapshot(redis);
    const { status, body } = await api.act({ filter: q, action: 'run', preview: true });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ preview: true, count: hit.length, stopped: false });
    expect(await snapshot(redis)).toEqual(before);
  });

  it('run: every retry and archived match becomes pending, as Go sees it', async () => {
    const q: Query = { queue: WORK, typePrefix: 'fail:' };
    const { before, hit } = await targets(q, 'run');
    const { status, body } = await api.act({ filter: q, action: 'run' });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ preview: false, matched: hit.length, succeeded: hit.length, failed: [], failedCount: 0, stopped: false });
    const after = await goView(DB);
    for (const t of hit) expect(after.find((a) => a.queue === t.queue && a.id === t.id)?.state, t.id).toBe('pending');
    expect(after.length).toBe(before.length);
  });

  it('archive: matches in any archivable state (JSON field + header filter)', async () => {
    const q: Query = { 'header.tenant': 'acme', 'payload.user.id': '42' };
    const { before, hit } = await targets(q, 'archive');
    expect(new Set(hit.map((t) => t.state)).size, 'several states').toBeGreaterThanOrEqual(2);
    const { body } = await api.act({ filter: q, action: 'archive' });
    expect(body).toMatchObject({ matched: hit.length, succeeded: hit.length, failedCount: 0 });
    const after = await goView(DB);
    for (const t of hit) expect(after.find((a) => a.queue === t.queue && a.id === t.id)?.state, t.id).toBe('archived');
    const untouched = before.filter((t) => !hit.includes(t)).map(key).sort();
    expect(after.filter((t) => untouched.includes(key(t))).map(key).sort()).toEqual(untouched);
  });

  it('run: aggregating tasks of every group and queue become pending (groups emptied)', async () => {
    const q: Query = { state: 'aggregating' };
    const { hit } = await targets(q, 'run');
    expect(new Set(hit.map((t) => t.queue)).size, 'groups in two queues').toBe(2);
    const { body } = await api.act({ filter: q, action: 'run' });
    expect(body).toMatchObject({ matched: hit.length, succeeded: hit.length, failedCount: 0 });
    const after = await goView(DB);
    for (const t of hit) expect(after.find((a) => a.queue === t.queue && a.id === t.id)?.state, t.id).toBe('pending');
    expect(after.filter((t) => t.state === 'aggregating')).toEqual([]);
  });

  it('delete: every match is gone from Go’s view, nothing else is', async () => {
    const q: Query = { payload: '4711' };
    const { before, hit } = await targets(q, 'delete');
    const { body } = await api.act({ filter: q, action: 'delete' });
    expect(body).toMatchObject({ matched: hit.length, succeeded: hit.length });
    const after = (await goView(DB)).map(key).sort();
    expect(after).toEqual(before.filter((t) => !hit.includes(t)).map(key).sort());
  });

  it('by task ID: the fast path acts in every queue that has it', async () => {
    const { hit } = await targets({ id: 'order-4711' }, 'archive');
    const { body } = await api.act({ filter: { id: 'order-4711' }, action: 'archive' });
    expect(body).toMatchObject({ matched: hit.length, succeeded: hit.length });
  });
});

describe('acting in chunks while the scan goes on', () => {
  async function seed(queue: string, n: number) {
    const p = redis.pipeline().sadd(k.ALL_QUEUES, queue);
    for (let i = 0; i < n; i++) {
      const m = newTaskMessage({ type: 'bulk', queue, id: `t${String(i).padStart(6, '0')}`, payload: json({ even: i % 2 === 0 }) });
      p.hset(k.taskKey(queue, m.id), 'msg', Buffer.from(encodeTaskMessage(m)), 'state', 'pending', 'pending_since', '1');
      p.lpush(k.pendingKey(queue), m.id);
    }
    await p.exec();
  }

  it('deletes 6,000 of 12,000 pending tasks: later matches are not skipped as earlier ones leave', async () => {
    await redis.flushdb();
    await seed('c', 12_000);
    const { body } = await api.act({ filter: { 'payload.even': 'true' }, action: 'delete' });
    expect(body).toMatchObject({ matched: 6000, succeeded: 6000, failedCount: 0, scanned: 12_000, total: 12_000 });
    const left = (await redis.lrange(k.pendingKey('c'), 0, -1)).reverse();
    expect(left).toEqual(Array.from({ length: 6000 }, (_, i) => `t${String(2 * i + 1).padStart(6, '0')}`));
    expect(await redis.exists(k.taskKey('c', 't000000'))).toBe(0);
  });

  it('streams NDJSON progress when asked, then the result', async () => {
    await redis.flushdb();
    await seed('c', 25_000);
    const { status, text } = await api.act({ filter: { 'payload.even': 'true' }, action: 'delete', preview: true }, { accept: 'application/x-ndjson' });
    expect(status).toBe(200);
    const lines = text.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.progress).map((l) => l.progress.scanned)).toEqual([10_000, 20_000, 25_000]);
    expect(lines.at(-1)).toEqual({ result: { preview: true, count: 12_500, byQueue: { c: 12_500 }, scanned: 25_000, total: 25_000, stopped: false } });
  });

  it('rejects what cannot be done, naming the field', async () => {
    await redis.flushdb();
    await seed('c', 3);
    const cases: [unknown, number, string][] = [
      [{ filter: { state: 'pending' }, action: 'run' }, 400, 'state'],
      [{ filter: { state: 'active' }, action: 'delete' }, 400, 'state'],
      [{ filter: { states: 'pending' }, action: 'delete' }, 400, 'filter.states'],
      [{ filter: {}, action: 'explode' }, 400, 'action'],
      [{ filter: {}, action: 'delete', preview: 'yes' }, 400, 'preview'],
      [{ filter: { queue: 'nope' }, action: 'delete' }, 404, ''],
    ];
    for (const [body, status, field] of cases) {
      const res = await api.act(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (field) expect(res.body.error.field, JSON.stringify(body)).toBe(field);
    }
    expect((await api.act({ filter: {}, action: 'delete' }, { origin: 'https://evil.example' })).status).toBe(403);
    expect(await redis.llen(k.pendingKey('c'))).toBe(3);
  });
});
