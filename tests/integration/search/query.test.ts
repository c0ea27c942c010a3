/**
 * GET /api/tasks/search?q= and POST /api/tasks/search/act with `filter.q`, on a real Redis
 * holding tasks written by the core's enqueue (and two failed ones seeded with their errors):
 * each form of the query language finds exactly the tasks it should, walking every page, alone
 * and ANDed with the old parameters; a bad query is a 400 naming its offset and word.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueTask } from '@/lib/asynq/client/enqueue';
import { moveTask } from '@/lib/asynq/mutations/task-actions';
import { json, newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedZset } from '@/lib/asynq/testutil/seed';
import { openTestRedis } from '../../support/test-redis';
import { openSearchApi, type SearchApi } from './api';

const DB = 28;
const now = new Date();
const ID = {
  m1: 'a1b2c3d4-1111-4111-8111-000000000001',
  m2: 'a1b2ffff-2222-4222-8222-000000000002',
  m3: 'c0ffee00-3333-4333-8333-000000000003',
  m4: 'beefcafe-4444-4444-8444-000000000004',
  b1: 'b1b1b1b1-5555-4555-8555-000000000005',
  b2: 'b2b2b2b2-6666-4666-8666-000000000006',
  b3: 'b3b3b3b3-7777-4777-8777-000000000007',
};
type Name = keyof typeof ID;

async function writeTasks(redis: Redis) {
  const put = (id: string, queue: string, type: string, payload: unknown, extra: { headers?: Record<string, string>; processAt?: Date } = {}) =>
    enqueueTask(
      redis,
      { type, payload: typeof payload === 'string' ? Buffer.from(payload) : json(payload), ...(extra.headers ? { headers: extra.headers } : {}) },
      { queue, taskId: id, ...(extra.processAt ? { processAt: extra.processAt } : {}) },
      now,
    );
  await put(ID.m1, 'mail', 'email:welcome', { user_id: 42, amount: 150, customer: { address: { city: 'Paris' } }, due: '2026-11-30' }, { headers: { tenant: 'acme' } });
  await put(ID.m2, 'mail', 'email:welcome', { user_id: '42', amount: '99.5', customer: { address: { city: 'New York' } } }, { headers: { tenant: 'other' } });
  await put(ID.m3, 'mail', 'email:digest', { user_id: 7, amount: 100, note: 'order 4711 shipped' }, { processAt: new Date(now.getTime() + 3_600_000) });
  await put(ID.m4, 'mail', 'email:digest', 'plain order 4711');
  await put(ID.b1, 'billing', 'billing:refund', { user_id: 42, amount: 500, due: '2026-12-05T10:00:00Z' });
  await moveTask(redis, 'billing', ID.b1, 'archive', now);
  const failed = (id: string, state: 'retry' | 'archived', payload: unknown, errorMsg: string) =>
    seedZset(redis, state, newTaskMessage({ id, queue: 'billing', type: 'billing:charge', payload: json(payload), errorMsg, retried: 1, lastFailedAt: Math.floor(now.getTime() / 1000) }), Math.floor(now.getTime() / 1000) + 60);
  await failed(ID.b2, 'retry', { amount: 20 }, 'dial tcp 10.0.0.1:5432: i/o timeout');
  await failed(ID.b3, 'archived', { amount: 'lots' }, 'card declined');
}

let redis: Redis;
let api: SearchApi;

beforeAll(async () => {
  redis = await openTestRedis(DB);
  api = await openSearchApi(DB);
  await redis.flushdb();
  await writeTasks(redis);
});
afterAll(() => redis?.quit());

const names = (ids: string[]) => ids.map((id) => (Object.entries(ID).find(([, v]) => v === id)?.[0] ?? id) as Name).sort();
/** Every match of `q` (plus parameters), page by page (2 per page). */
const found = async (q: string, params: Record<string, string | string[]> = {}) => names((await api.all({ ...params, q }, 2)).tasks.map((t) => t.id as string));

describe('the search query language, on a real Redis', () => {
  it('the data: every task is there', async () => {
    expect(await found('')).toEqual(['b1', 'b2', 'b3', 'm1', 'm2', 'm3', 'm4']);
  });

  it.each([
    ['type:email:welcome', ['m1', 'm2']],
    ['type:email:*', ['m1', 'm2', 'm3', 'm4']],
    ['type:email:digest type:billing:*', ['b1', 'b2', 'b3', 'm3', 'm4']],
    ['type:email:', []],
    ['id:a1b2c3d4', ['m1']],
    ['id:a1b2', ['m1', 'm2']],
    [`id:${ID.m4}`, ['m4']],
    ['queue:billing', ['b1', 'b2', 'b3']],
    ['queue:mail queue:billing', ['b1', 'b2', 'b3', 'm1', 'm2', 'm3', 'm4']],
    ['state:archived', ['b1', 'b3']],
    ['state:retry,archived', ['b1', 'b2', 'b3']],
    ['state:scheduled state:retry', ['b2', 'm3']],
    ['-state:pending', ['b1', 'b2', 'b3', 'm3']],
    ['error:"i/o timeout"', ['b2']],
    ['error:declined', ['b3']],
    ['error:"i/o" error:declined', []],
    ['user_id:42', ['b1', 'm1', 'm2']],
    ['customer.address.city:Paris', ['m1']],
    ['customer.address.city:"New York"', ['m2']],
    ['amount>100', ['b1', 'm1']],
    ['amount>=100', ['b1', 'm1', 'm3']],
    ['amount:<100', ['b2', 'm2']],
    ['amount<=99.5', ['b2', 'm2']],
    ['due<2026-12-01', ['m1']],
    ['due>=2026-12-01T00:00:00Z', ['b1']],
    ['-user_id:42', ['b2', 'b3', 'm3', 'm4']],
    ['-amount>=100', ['b2', 'b3', 'm2', 'm4']],
    ['header.tenant:acme', ['m1']],
    ['4711', ['m3', 'm4']],
    ['"order 4711 shipped"', ['m3']],
    ['beefcafe', ['m4']],
    ['c0ffee00 4711', ['m3']],
    ['type:email:* user_id:42', ['m1', 'm2']],
    ['queue:mail user_id:42 amount>100 customer.address.city:Paris', ['m1']],
  ])('%s', async (q, want) => {
    expect(await found(q)).toEqual([...want].sort());
  });

  it('ANDs with the old parameters', async () => {
    expect(await found('type:email:*', { state: 'pending' })).toEqual(['m1', 'm2', 'm4']);
    expect(await found('user_id:42', { queue: 'mail' })).toEqual(['m1', 'm2']);
    expect(await found('type:email:welcome', { typePrefix: 'email:' })).toEqual(['m1', 'm2']);
    expect(await found('-state:archived', { queue: 'billing' })).toEqual(['b2']);
    expect(await found('error:tcp', { error: 'timeout' })).toEqual(['b2']);
    expect(await found('id:a1b2', { id: ID.m2 })).toEqual(['m2']);
    expect(await found('amount>100', { 'payload.user_id': '42', payload: 'Paris' })).toEqual(['m1']);
  });

  it('a bad query is a 400 naming the offset and the word, before any scan', async () => {
    const { status, body } = await api.page({ q: 'user_id:42 amount>abc' });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({
      code: 'invalid_argument', field: 'q', offset: 11, token: 'amount>abc',
      message: 'q: at 11, "amount>abc": a comparison needs a number (amount>100) or an ISO date or time (due<2026-12-01)',
    });
    const contradiction = await api.page({ q: 'queue:billing', queue: 'mail' });
    expect(contradiction.status).toBe(400);
    expect(contradiction.body.error.message).toContain('no task can match');
    const long = await api.page({ q: 'x '.repeat(40) });
    expect(long.body.error.message).toContain('at most 32 words');
  });

  it('search/act takes filter.q: a preview counts exactly its matches; a bad one is a 400, not a stream', async () => {
    const preview = await api.act({ filter: { q: 'queue:billing -user_id:42' }, action: 'delete', preview: true });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ preview: true, count: 2, byQueue: { billing: 2 } });
    const bad = await api.act({ filter: { q: 'amount>"x"' }, action: 'delete' }, { accept: 'application/x-ndjson' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({ error: { field: 'q', offset: 0, token: 'amount>"x"' } });
  });

  it('acting on a query changes exactly its matches', async () => {
    const res = await api.act({ filter: { q: 'state:archived error:declined' }, action: 'run' });
    expect(res.body).toMatchObject({ preview: false, matched: 1, succeeded: 1 });
    expect(await found('state:pending queue:billing')).toEqual(['b3']);
  });
});
