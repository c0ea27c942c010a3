/**
 * Bounded input: every route's body limit (413 naming it, the body never read past it), path
 * segments that do not decode and lone surrogates (400 naming the path or param), oversized
 * cursors (400 naming `cursor`), an empty filter list (400) and acting on every queue only with
 * `all: true`. Each refusal leaves Redis as it was.
 */
import { NextRequest } from 'next/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import { callRoute, type Handler } from '../../support/call-route';
import { snapshot } from '../../support/redis-snapshot';
import { testRedisUrl, useTestRedis } from '../../support/test-redis';
import { consoleRoutes } from '../../support/console-routes';

const DB = 108;
process.env.REDIS_URL = testRedisUrl(DB);
const redis = await useTestRedis(DB);
const KiB = 1024;
const JSON_TYPE = { 'content-type': 'application/json' };

let MAX_PAYLOAD_BODY_BYTES = 0;
let LIST_MAX_BODY = 0;
type Methods = Record<'GET' | 'POST' | 'PATCH' | 'DELETE', Handler>;
const r: Record<string, Methods> = {};
const load = async (module: Promise<unknown>) => (await module) as Methods;

beforeAll(async () => {
  ({ MAX_PAYLOAD_BODY_BYTES } = await import('@/lib/server/dto/payload'));
  ({ LIST_MAX_BODY } = await import('@/lib/server/http/request-input'));
  r.enqueue = await load(consoleRoutes().then((routes) => routes.tasks));
  r.check = await load(consoleRoutes().then((routes) => routes.check));
  r.task = await load(consoleRoutes().then((routes) => routes.task));
  r.batch = await load(consoleRoutes().then((routes) => routes.batch));
  r.bulk = await load(consoleRoutes().then((routes) => routes.bulk));
  r.resolve = await load(consoleRoutes().then((routes) => routes.resolve));
  r.explain = await load(consoleRoutes().then((routes) => routes.explain));
  r.act = await load(consoleRoutes().then((routes) => routes.act));
  r.search = await load(consoleRoutes().then((routes) => routes.search));
  r.pause = await load(consoleRoutes().then((routes) => routes.pause));
  r.login = await load(consoleRoutes().then((routes) => routes.login));
  r.queue = await load(consoleRoutes().then((routes) => routes.queue));
  r.locks = await load(consoleRoutes().then((routes) => routes.allLocks));
  r.queueLocks = await load(consoleRoutes().then((routes) => routes.locks));
});

/** A body of `size` bytes streamed in 16 KiB chunks without a length; counts what was pulled. */
function streamed(size: number) {
  const chunk = new Uint8Array(16 * KiB).fill(0x20);
  const seen = { pulled: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (seen.pulled >= size) return c.close();
      const n = Math.min(chunk.length, size - seen.pulled);
      seen.pulled += n;
      c.enqueue(chunk.subarray(0, n));
    },
  });
  return { body, seen };
}

const post = (h: Handler, params: Record<string, string>, init: RequestInit & { duplex?: 'half' }) =>
  callRoute(h, '/api/x', params, { method: 'POST', ...init, headers: { ...JSON_TYPE, ...(init.headers as Record<string, string>) } });

describe('body limits', () => {
  const cases = () =>
    [
      ['enqueue', r.enqueue!.POST, { qname: 'q' }, MAX_PAYLOAD_BODY_BYTES],
      ['enqueue check', r.check!.POST, { qname: 'q' }, MAX_PAYLOAD_BODY_BYTES],
      ['batch enqueue', r.batch!.POST, {}, MAX_PAYLOAD_BODY_BYTES],
      ['bulk', r.bulk!.POST, { qname: 'q' }, LIST_MAX_BODY],
      ['duplicates resolve', r.resolve!.POST, { qname: 'q' }, LIST_MAX_BODY],
      ['routing explain', r.explain!.POST, {}, LIST_MAX_BODY],
      ['search act', r.act!.POST, {}, 64 * KiB],
      ['pause', r.pause!.POST, { qname: 'q' }, 64 * KiB],
      ['login', r.login!.POST, {}, 64 * KiB],
    ] as const;

  it('the payload routes take the largest payload as base64; lists take 100,000 IDs', () => {
    expect(MAX_PAYLOAD_BODY_BYTES).toBe(Math.ceil((16 * 1024 * 1024) / 3) * 4 + 64 * KiB);
    expect(LIST_MAX_BODY).toBeGreaterThan(100_000 * JSON.stringify(`${crypto.randomUUID()},`).length);
  });

  it('refuses a Content-Length over the limit with 413 naming it, without reading a byte', async () => {
    for (const [name, handler, params, limit] of cases()) {
      const { body, seen } = streamed(limit + 1);
      const res = await post(handler, params, { body, duplex: 'half', headers: { 'content-length': String(limit + 1) } });
      expect(res.status, name).toBe(413);
      expect(res.body.error).toMatchObject({ code: 'payload_too_large', field: 'body', limitBytes: limit });
      expect(res.body.error.message, name).toContain(`${limit} bytes`);
      expect(seen.pulled, name).toBeLessThanOrEqual(16 * KiB);
    }
  });

  it('counts a body without a length and stops reading at the first chunk past the limit', async () => {
    for (const [name, handler, params, limit] of cases()) {
      if (limit > 64 * KiB && name !== 'bulk') continue; // one large route is enough for the time it takes
      const { body, seen } = streamed(limit * 3);
      const res = await post(handler, params, { body, duplex: 'half' });
      expect(res.status, name).toBe(413);
      // The stream may be one chunk ahead of the reader, never more.
      expect(seen.pulled, name).toBeLessThanOrEqual(limit + 3 * 16 * KiB);
    }
  });

  it('reads a body of exactly the limit (then the schema decides)', async () => {
    await seedPending(redis, newTaskMessage({ type: 't', queue: 'q' }));
    const padded = JSON.stringify({ filter: { queue: 'q' }, action: 'delete', preview: true }).padEnd(64 * KiB, ' ');
    const res = await post(r.act!.POST, {}, { body: padded });
    expect(res.status).toBe(200);
    expect((await post(r.act!.POST, {}, { body: `${padded} ` })).status).toBe(413);
  });

  it('enqueues a 12 MiB payload (over Next’s default 10 MB body buffer) and the build lets it through', async () => {
    const payload = 'p'.repeat(12 * 1024 * 1024);
    const res = await post(r.enqueue!.POST, { qname: 'big' }, { body: JSON.stringify({ type: 't', payload }) });
    expect(res.status).toBe(201);
    const file = new URL('../../../next.config.mjs', import.meta.url).href;
    const config = ((await import(file)) as { default: { experimental?: { proxyClientMaxBodySize?: number } } }).default;
    expect(config.experimental?.proxyClientMaxBodySize).toBeGreaterThanOrEqual(MAX_PAYLOAD_BODY_BYTES + 64 * KiB);
  });

  it('refuses a body that is not UTF-8 with 400 naming body', async () => {
    const res = await post(r.act!.POST, {}, { body: new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_argument', field: 'body', message: 'body: not valid UTF-8' });
  });
});

describe('paths and cursors', () => {
  it('a path segment that does not decode is a 400 naming the path, in route() and in proxy.ts', async () => {
    const rejected = Promise.reject(new URIError('URI malformed'));
    rejected.catch(() => undefined);
    const res = await r.queue!.GET(new Request('http://localhost/api/queues/%FF'), { params: rejected });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_argument', field: 'path', message: 'path: segment "%FF" is not valid percent-encoded UTF-8' } });
    const { proxy } = await import('@/proxy');
    for (const path of ['/api/queues/%FF', '/api/queues/q/tasks/%ED%A0%80']) {
      const answer = await proxy(new NextRequest(`http://localhost${path}`, { headers: { host: 'localhost' } }));
      expect(answer.status, path).toBe(400);
      expect(((await answer.json()) as { error: { field: string } }).error.field).toBe('path');
    }
    const page = await proxy(new NextRequest('http://localhost/queues/%FF', { headers: { host: 'localhost' } }));
    expect(page.status).toBe(400);
    expect((await proxy(new NextRequest('http://localhost/api/queues/%C3%A9', { headers: { host: 'localhost' } }))).headers.get('x-middleware-next')).toBe('1');
  });

  it('a lone surrogate in a param is a 400 naming the param', async () => {
    const res = await callRoute(r.queue!.GET, '/api/queues/x', { qname: 'q\ud800' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_argument', field: 'qname' });
  });

  it('refuses cursors that are not the previous page’s: too long, not numeric, past 2^64', async () => {
    for (const cursor of ['abc', '1'.repeat(21), '18446744073709551616', '-1']) {
      for (const h of [r.locks!.GET, r.queueLocks!.GET]) {
        const res = await callRoute(h, `/api/locks?cursor=${cursor}`, { qname: 'q' });
        expect(res.status, cursor).toBe(400);
        expect(res.body.error.field).toBe('cursor');
      }
    }
    expect((await callRoute(r.locks!.GET, '/api/locks?cursor=18446744073709551615')).status).toBe(200);
    for (const cursor of ['x'.repeat(5000), 'a b', '%FF']) {
      const res = await callRoute(r.search!.GET, `/api/tasks/search?queue=q&cursor=${encodeURIComponent(cursor)}`);
      expect(res.status, cursor).toBe(400);
      expect(res.body.error.field).toBe('cursor');
    }
  });
});

describe('search act: every queue only on purpose', () => {
  const act = (body: unknown) => post(r.act!.POST, {}, { body: JSON.stringify(body) });

  async function seedTwoQueues() {
    await seedPending(redis, newTaskMessage({ type: 'a', queue: 'one' }));
    await seedZset(redis, 'archived', newTaskMessage({ type: 'b', queue: 'two' }), Math.floor(Date.now() / 1000));
  }

  it('an empty list in a filter is a 400 naming it, and nothing changes', async () => {
    await seedTwoQueues();
    const before = await snapshot(redis);
    for (const param of ['queue', 'state', 'type', 'typePrefix']) {
      const res = await act({ filter: { [param]: [] }, action: 'delete' });
      expect(res.status, param).toBe(400);
      expect(res.body.error).toMatchObject({ field: `filter.${param}`, message: `filter.${param}: ${param} must list one or more values` });
    }
    expect(await snapshot(redis)).toEqual(before);
  });

  it('a filter without queue, type, state or text acts only with all: true', async () => {
    await seedTwoQueues();
    const before = await snapshot(redis);
    for (const filter of [{}, { minRetried: '0' }, { lastFailedAfter: '2000-01-01' }]) {
      const res = await act({ filter, action: 'delete' });
      expect(res.status, JSON.stringify(filter)).toBe(400);
      expect(res.body.error.field).toBe('all');
      expect(res.body.error.message).toContain('"all": true');
    }
    expect((await act({ filter: {}, action: 'delete', all: false })).body.error.field).toBe('all');
    expect(await snapshot(redis)).toEqual(before);
    // Counting needs no all: it changes nothing.
    expect((await act({ filter: {}, action: 'delete', preview: true })).body).toMatchObject({ preview: true, count: 2 });
    const done = await act({ filter: {}, action: 'delete', all: true });
    expect(done.body).toMatchObject({ preview: false, succeeded: 2 });
    expect(await redis.exists('asynq:{one}:pending', 'asynq:{two}:archived')).toBe(0);
  });

  it('a narrowing filter needs no all', async () => {
    await seedTwoQueues();
    expect((await act({ filter: { queue: 'one' }, action: 'delete' })).body).toMatchObject({ succeeded: 1 });
    expect((await act({ filter: { 'header.tenant': 'x' }, action: 'delete' })).body).toMatchObject({ succeeded: 0 });
  });
});
