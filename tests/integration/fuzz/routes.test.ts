/**
 * Property-based fuzzing of every API route's input. Every route module under app/api (read
 * from the file tree) gets, per method, FUZZ_CASES random requests: near-valid and random JSON
 * bodies (deep, huge, wrong types, nulls, numbers as strings, unicode, lone surrogates, bytes
 * that are not UTF-8, bodies past the route's limit), random query strings and path segments
 * (`%FF`, very long, `{`, `}`, `*`, newlines). The properties: never a 5xx; every 4xx is the
 * API's envelope and a 400 names its field; a refused request leaves Redis exactly as it was
 * (every key's type and value before and after). The seed is printed with any failure;
 * replay it with FUZZ_SEED=<seed>.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTaskMessage, json } from '@/lib/asynq/testutil/factories';
import { seedAggregating, seedLock, seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import { keys as k } from '@/lib/asynq';
import { openTestRedis, testRedisUrl } from '../../support/test-redis';
import { digest, mutate, prng, randomJson, randomQuery, randomSegment, randomString, routeModules, type Rng } from './fuzz-support';

const DB = 109;
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CASES = Number(process.env.FUZZ_CASES ?? 60);
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** A valid body per route and method: mutating one part of it reaches the deepest checks. */
const TEMPLATES: Record<string, unknown> = {
  'queues/[qname]/tasks POST': { type: 'email:send', payload: '{"to":"a@b.c"}', options: { maxRetry: 3, headers: { t: 'a' } } },
  'queues/[qname]/tasks/[taskId] PATCH': { payload: 'x', payloadEncoding: 'utf8' },
  'queues/[qname]/enqueue-check POST': { type: 't', payload: 'x', unique: true },
  'queues/[qname]/bulk POST': { action: 'archive', state: 'pending', ids: ['x'] },
  'queues/[qname]/duplicates/resolve POST': { taskIds: ['x'] },
  'enqueue-batch POST': { items: [{ queue: 'fz', type: 't', payload: 'p' }] },
  'routing/explain POST': { patterns: ['email:*'], taskTypes: ['email:send'] },
  'handler-not-found/rerun POST': { queue: 'fz', taskType: 't', states: ['archived'] },
  'tasks/search/act POST': { filter: { queue: 'fz', state: ['archived'] }, action: 'delete', preview: true },
  'auth/login POST': { username: 'a', password: 'b' },
};

/** A valid query per route: one changed parameter at a time goes past the first check. */
const QUERIES: Record<string, string> = {
  'queues/[qname]/tasks GET': 'state=pending&page=1&size=20',
  'queues/[qname]/locks DELETE': 'key=asynq%3A%7Bfz%7D%3Aunique%3Ax&holder=x',
  'queues/[qname]/locks GET': 'cursor=0',
  'locks GET': 'cursor=0',
  'tasks/search GET': 'queue=fz&state=pending&size=5',
  'queues/[qname] DELETE': 'force=false',
  'failures GET': 'queue=fz&wait=0',
  'handler-not-found GET': 'wait=0',
  'task-types GET': 'wait=0',
  'queues/[qname]/duplicates GET': 'states=pending',
};

let redis: Awaited<ReturnType<typeof openTestRedis>>;
let ids: string[] = [];

/** A few tasks in every state, a group and a lock: something for each route to find. */
async function seed(): Promise<void> {
  await redis.flushdb();
  const a = newTaskMessage({ type: 'email:send', queue: 'fz', payload: json({ user: { id: 42 } }), uniqueKey: k.uniqueKey('fz', 'email:send', json({ user: { id: 42 } })) });
  const b = newTaskMessage({ type: 'report', queue: 'fz', errorMsg: 'boom', retried: 2 });
  const c = newTaskMessage({ type: 'email:send', queue: 'other', groupKey: 'g1' });
  const d = newTaskMessage({ type: 'gone:handler', queue: 'fz', errorMsg: 'handler not found for task "gone:handler"' });
  await seedPending(redis, a);
  await seedZset(redis, 'retry', b, Math.floor(Date.now() / 1000) + 60);
  await seedZset(redis, 'archived', d, Math.floor(Date.now() / 1000) - 60);
  await seedAggregating(redis, c);
  await seedLock(redis, a.uniqueKey, a.id, 600);
  ids = [a.id, b.id, c.id, d.id];
}

beforeAll(async () => {
  process.env.REDIS_URL = testRedisUrl(DB);
  redis = await openTestRedis(DB);
});
afterAll(() => redis.quit());

/** Next decodes each segment with decodeURIComponent and fails the params when one does not. */
function nextParams(r: Rng, names: string[], raw: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  try {
    names.forEach((name, i) => (out[name] = decodeURIComponent(raw[i]!)));
  } catch (err) {
    const p = Promise.reject(err instanceof Error ? err : new Error(String(err)));
    p.catch(() => undefined);
    return p;
  }
  // What no URL can carry but a caller could: a lone surrogate in a decoded param.
  if (names.length > 0 && r.chance(0.05)) out[r.pick(names)] = `${r.pick(['fz', 'x'])}\ud800`;
  return Promise.resolve(out);
}

function goodFor(param: string): string[] {
  if (param === 'qname') return ['fz', 'other', 'nope'];
  if (param === 'taskId') return ids;
  if (param === 'action') return ['run', 'archive', 'delete', 'cancel'];
  return ['entry-1'];
}

/** A body: near-valid, random, garbage, not UTF-8, none, or past any limit. */
function randomBody(r: Rng, template: unknown): BodyInit | null {
  const k = r.int(20);
  if (k < 9 && template !== undefined) return JSON.stringify(mutate(r, template));
  if (k < 13) return JSON.stringify(randomJson(r));
  if (k < 15) return r.pick(['{', '[1,', 'null', '"', '{"a":}', 'NaN', '  ', '{"filter":{"queue":[]},"action":"delete"}', randomString(r)]);
  if (k < 16) return new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]);
  if (k < 17) {
    // Past the default limit, streamed without a length: counted while read.
    const chunk = new TextEncoder().encode(`"${'a'.repeat(16 * 1024)}`);
    let sent = 0;
    return new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent++ < 6) c.enqueue(chunk);
        else c.close();
      },
    });
  }
  return null;
}

describe('fuzzing every route’s input', () => {
  const modules = routeModules(join(process.cwd(), 'app/api'));

  it('finds the route modules', () => {
    expect(modules.length).toBeGreaterThan(30);
  });

  for (const mod of modules) {
    it(`/api/${mod.dir}: no 5xx, 4xx in the envelope naming a field, no Redis change on refusal`, async () => {
      const handlers = (await import(mod.file)) as Record<string, unknown>;
      const r = prng(SEED ^ [...mod.dir].reduce((h, ch) => Math.imul(h, 31) + ch.charCodeAt(0), 7));
      await seed();
      const tally: Record<string, number> = {};
      for (const method of METHODS) {
        const handler = handlers[method] as Handler | undefined;
        if (typeof handler !== 'function') continue;
        const key = `${mod.dir} ${method}`;
        for (let i = 0; i < CASES; i++) {
          const raw = mod.params.map((p) => randomSegment(r, goodFor(p)));
          const template = QUERIES[key];
          const query = template !== undefined && r.chance(0.5) ? mutateQuery(r, template) : randomQuery(r, []);
          const url = `http://localhost/api/${mod.dir.split('/').map((s) => (s.startsWith('[') ? raw[mod.params.indexOf(s.slice(1, -1))] : s)).join('/')}?${query}`;
          const hasBody = method !== 'GET' && r.chance(0.9);
          const body = hasBody ? randomBody(r, TEMPLATES[key]) : null;
          const headers: Record<string, string> = {};
          if (body !== null) headers['content-type'] = r.chance(0.9) ? 'application/json' : r.pick(['text/plain', 'application/json; charset=utf-8', 'application/x-www-form-urlencoded']);
          if (r.chance(0.2)) headers.accept = 'application/x-ndjson';
          const what = `seed ${SEED}, case ${i}: ${method} ${url.slice(0, 300)} body ${typeof body === 'string' ? body.slice(0, 300) : body === null ? 'none' : 'bytes or a stream'}`;
          const before = await digest(redis);
          const init: RequestInit & { duplex?: 'half' } = { method, headers, body, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) };
          const res = await handler(new Request(url, init), { params: nextParams(r, mod.params, raw) });
          // An event stream never ends by itself: what matters here is that it opened.
          const streamed = res.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
          if (streamed) await res.body?.cancel();
          const text = streamed ? '' : await res.text();
          tally[`${method} ${res.status}`] = (tally[`${method} ${res.status}`] ?? 0) + 1;
          expect(res.status, `${what} → ${text.slice(0, 500)}`).toBeLessThan(500);
          if (res.headers.get('content-type')?.includes('ndjson')) {
            const last = JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as { error?: { code: string } };
            expect(last.error?.code, `${what} → ${text.slice(-500)}`).not.toBe('internal');
          }
          if (res.status < 400) continue;
          const envelope = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; field?: unknown } };
          expect(typeof envelope.error?.code, `${what} → ${text}`).toBe('string');
          expect(envelope.error?.message, `${what} → ${text}`).toMatch(/\S/);
          if (envelope.error?.code === 'invalid_argument') expect(typeof envelope.error?.field, `${what} → ${text}`).toBe('string');
          const after = await digest(redis);
          const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => before[key] !== after[key]);
          expect(changed, `${what} → ${res.status} ${text.slice(0, 300)} changed Redis`).toEqual([]);
        }
      }
      // What the cases reached: a route answered only with 400s was barely exercised.
      console.log(`[fuzz] /api/${mod.dir} seed ${SEED}: ${JSON.stringify(tally)}`);
    });
  }
});

/** The template with one parameter's value (or name) replaced. */
function mutateQuery(r: Rng, template: string): string {
  const params = new URLSearchParams(template);
  const entries = [...params];
  const [name] = r.pick(entries);
  const value = randomString(r).replace(/\p{Surrogate}/gu, '\ufffd');
  if (r.chance(0.2)) params.append(name, value);
  else if (r.chance(0.1)) params.delete(name);
  else params.set(name, value);
  const out = params.toString();
  return r.chance(0.1) ? `${out}&${name}=%FF` : out;
}
