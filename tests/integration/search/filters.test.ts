/**
 * GET /api/tasks/search on data written by the real asynq v0.26.0: each filter alone, then
 * combined, each compared with what Go's own Inspector shows (oracle.ts), walking every page
 * (size 3, so cursors are resumed all the time).
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestRedis } from '../../support/test-redis';
import { openSearchApi, type SearchApi } from './api';
import { BILLING, MAIL, ODD, RETRY, SHARED_ID, WORK, writeGoData, type GoData } from './go-data';
import { asynqGo } from '../../interop/write/go';
import { expected, key, type Query } from './oracle';

const DB = 60;
asynqGo.requireGo('search/filters.test.ts (data written by Go)');

const iso = (unixSec: number) => new Date(unixSec * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe.skipIf(asynqGo.noGo)('task search on data written by asynq v0.26.0', () => {
  let redis: Redis;
  let api: SearchApi;
  let data: GoData;
  let t0: number;

  beforeAll(async () => {
    redis = await openTestRedis(DB);
    api = await openSearchApi(DB);
    data = await writeGoData(DB);
    t0 = data.startedAt;
  });
  afterAll(() => redis?.quit());

  const found = async (q: Query) => (await api.all(q)).tasks.map(key).sort();
  const check = async (q: Query, atLeast = 1) => {
    const want = expected(data.tasks, q);
    expect(want.length, `the data has ${atLeast}+ matches for ${JSON.stringify(q)}`).toBeGreaterThanOrEqual(atLeast);
    expect(await found(q), JSON.stringify(q)).toEqual(want);
  };

  it('the Go data covers every state the filters need', () => {
    const states = new Set(data.tasks.map((t) => t.state));
    for (const s of ['pending', 'scheduled', 'retry', 'archived', 'completed', 'aggregating']) expect(states, s).toContain(s);
  });

  it('no filter: every task Go lists, each exactly once, with total = scanned = that count', async () => {
    const { tasks, pages } = await api.all({}, 4);
    expect(tasks.map(key).sort()).toEqual(expected(data.tasks, {}));
    const last = pages.at(-1);
    expect(last).toMatchObject({ complete: true, cursor: null, scanned: data.tasks.length, total: data.tasks.length, matched: data.tasks.length });
    expect(pages.slice(0, -1).every((p) => p.complete === false && typeof p.cursor === 'string')).toBe(true);
  });

  describe('each filter alone', () => {
    it('queue, one and several (repeated parameter), names with braces, spaces and unicode', async () => {
      await check({ queue: BILLING });
      await check({ queue: ODD });
      await check({ queue: [MAIL, WORK] }, 5);
    });
    it('state, one and several (comma list and repeated parameter)', async () => {
      await check({ state: 'scheduled' }, 2);
      await check({ state: 'retry,archived' }, 4);
      await check({ state: 'retry' }, 2);
      await check({ state: ['aggregating', 'completed'] }, 3);
    });
    it('type exact, type prefix, and `type=email:` as an exact type (matches nothing)', async () => {
      await check({ type: 'email:welcome' }, 4);
      await check({ typePrefix: 'email:' }, 6);
      await check({ type: ['sms:send', 'billing:refund'] }, 3);
      expect(await found({ type: 'email:' })).toEqual([]);
    });
    it('task ID across all queues, without scanning', async () => {
      await check({ id: SHARED_ID }, 2);
      const { body } = await api.page({ id: SHARED_ID });
      expect(body).toMatchObject({ complete: true, cursor: null, scanned: 2, total: 2 });
      expect(await found({ id: 'no-such-task' })).toEqual([]);
    });
    it('payload substring: text payloads only (the binary payload holding the same bytes is not a match)', async () => {
      await check({ payload: '4711' }, 2);
      const binary = data.tasks.find((t) => t.type === 'sms:send' && t.payloadBase64?.startsWith('//4'));
      expect(binary, 'the binary sms task').toBeDefined();
      expect(await found({ payload: '4711' })).not.toContain(key(binary!));
    });
    it('payload JSON fields: dotted paths, "42" matches 42 and "42", arrays, booleans, null, 42.0, escaped keys', async () => {
      await check({ 'payload.user.id': '42' }, 6);
      await check({ 'payload.items.sku': 'A1' });
      await check({ 'payload.items.1.sku': 'B2' });
      await check({ 'payload.tags': 'vip' });
      await check({ 'payload.paid': 'true' });
      await check({ 'payload.paid': 'false' });
      await check({ 'payload.note': 'null' });
      await check({ 'payload.amount': '42' });
      await check({ 'payload.name': 'esc' });
      expect(await found({ 'payload.user': '42' }), 'an object never equals a scalar').toEqual([]);
    });
    it('last error substring', async () => {
      await check({ error: 'fail:' }, 3);
      await check({ error: 'fail:retry' });
    });
    it('header key/value', async () => {
      await check({ 'header.tenant': 'acme' }, 5);
      await check({ 'header.region': 'eu' });
      expect(await found({ 'header.tenant': 'ACME' })).toEqual([]);
    });
    it('retried at least n', async () => {
      await check({ minRetried: '1' }, 3);
      await check({ minRetried: '2' }, 1);
      await check({ minRetried: '0' }, data.tasks.length);
    });
    it('time windows: last failed, next run, completed (after inclusive, before exclusive)', async () => {
      await check({ lastFailedAfter: iso(t0 - 5) }, 3);
      await check({ lastFailedBefore: iso(t0 - 5) }, 0);
      await check({ nextRunAfter: iso(t0 + 1800) }, 2);
      await check({ nextRunAfter: iso(t0 + 1800), nextRunBefore: iso(t0 + 3600) }, 0);
      await check({ nextRunAfter: iso(t0 + 3600), nextRunBefore: iso(t0 + 3601) }, 1);
      await check({ completedAfter: iso(t0 - 5) }, 1);
      await check({ completedAfter: iso(t0 - 5), completedBefore: iso(t0 + 600) }, 1);
    });
  });

  describe('combined', () => {
    it('type prefix + header + JSON field + several states', async () => {
      await check({ typePrefix: 'email:', 'header.tenant': 'acme', 'payload.user.id': '42', state: 'pending,scheduled,aggregating' }, 3);
    });
    it('queue + error + retried + failure window', async () => {
      await check({ queue: [WORK, RETRY], error: 'fail', minRetried: '1', lastFailedAfter: iso(t0 - 5) }, 3);
    });
    it('payload substring + exact type', async () => {
      await check({ payload: '4711', type: 'sms:send' }, 1);
    });
    it('task ID + queue + JSON field', async () => {
      await check({ id: SHARED_ID, queue: BILLING, 'payload.currency': 'EUR' }, 1);
      expect(await found({ id: SHARED_ID, queue: BILLING, 'payload.currency': 'USD' })).toEqual([]);
      expect(await found({ id: SHARED_ID, state: 'archived' })).toEqual([]);
    });
    it('state + next-run window + type', async () => {
      await check({ state: 'scheduled', nextRunBefore: iso(t0 + 5000), type: 'email:digest' }, 1);
    });
  });

  it('each result is a full Task with its queue and state, as Go sees it', async () => {
    const { tasks } = await api.all({ queue: WORK }, 100);
    for (const t of tasks) {
      const go = data.tasks.find((g) => g.queue === t.queue && g.id === t.id)!;
      expect(t, t.id).toMatchObject({
        queue: go.queue, state: go.state, type: go.type, headers: go.headers, retried: go.retried, maxRetry: go.maxRetry,
        lastError: go.lastError, lastFailedAt: go.lastFailedAt ? iso(go.lastFailedAt) : null,
        completedAt: go.completedAt ? iso(go.completedAt) : null, payloadEncoding: 'utf8', problem: null,
      });
      expect(Buffer.from(t.payload).toString('base64')).toBe(go.payloadBase64);
    }
    const binary = (await api.all({ type: 'sms:send' }, 100)).tasks.find((t) => t.payloadEncoding === 'base64');
    expect(binary?.payload).toBe(Buffer.from([0xff, 0xfe, 0x34, 0x37, 0x31, 0x31, 0x00]).toString('base64'));
  });

  describe('bad filters are a 400 naming the parameter', () => {
    const cases: [string, Query, string][] = [
      ['unknown state', { state: 'pending,bogus' }, 'state'],
      ['unknown parameter (a typo never widens a search)', { states: 'pending' }, 'states'],
      ['empty payload path', { 'payload.': 'x' }, 'payload.'],
      ['empty path segment', { 'payload.user..id': '1' }, 'payload.user..id'],
      ['negative minRetried', { minRetried: '-1' }, 'minRetried'],
      ['not a time', { lastFailedAfter: 'yesterday' }, 'lastFailedAfter'],
      ['window the wrong way round', { completedAfter: '2026-01-02T00:00:00Z', completedBefore: '2026-01-01T00:00:00Z' }, 'completedAfter'],
      ['id twice', { id: ['a', 'b'] }, 'id'],
      ['empty queue name', { queue: '' }, 'queue'],
      ['size 0', { size: '0' }, 'size'],
      ['size 101', { size: '101' }, 'size'],
      ['a cursor that is not one', { cursor: 'not-a-cursor' }, 'cursor'],
    ];
    it.each(cases)('%s', async (_name, q, field) => {
      const { status, body } = await api.page(q);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(body.error).toMatchObject({ code: 'invalid_argument', field });
      expect(body.error.message).toContain(field);
    });
    it('a cursor from a search with another filter', async () => {
      const first = await api.page({ queue: MAIL }, { size: '1' });
      const { status, body } = await api.page({ queue: BILLING }, { cursor: first.body.cursor });
      expect(status).toBe(400);
      expect(body.error).toMatchObject({ code: 'invalid_argument', field: 'cursor' });
    });
    it('a queue that does not exist is a 404', async () => {
      const { status, body } = await api.page({ queue: 'search:nope' });
      expect(status).toBe(404);
      expect(body.error.code).toBe('queue_not_found');
    });
  });
});
