/**
 * POST /api/routing/explain and GET /api/routing/patterns, in read-only mode (both are reads),
 * where the re-run (a mutation) is refused.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRoute } from '../../support/call-route';
import { consoleRoutes } from '../../support/console-routes';
import { snapshot } from '../../support/redis-snapshot';
import { get, notFoundError, openTriageRedis, postJson, seedFailed } from './helpers';

const DB = 72;
const routes = await consoleRoutes();
const dir = mkdtempSync(join(tmpdir(), 'asynqlens-routing-'));
const file = join(dir, 'patterns.json');
let redis: Redis;

beforeAll(async () => {
  ({ redis } = await openTriageRedis(DB));
  process.env.ASYNQLENS_READ_ONLY = '1';
  process.env.ASYNQLENS_ROUTING_FILE = file;
});
afterAll(async () => {
  delete process.env.ASYNQLENS_READ_ONLY;
  delete process.env.ASYNQLENS_ROUTING_FILE;
  rmSync(dir, { recursive: true, force: true });
  await redis.quit();
});

const explainOf = (p: string[], t: string[]) => postJson(routes.explain.POST, '/api/routing/explain', { patterns: p, taskTypes: t });

describe('POST /api/routing/explain', () => {
  it('answers exact, prefix (longest first) and none, as the ServeMux routes', async () => {
    const r = await explainOf(['email', 'email:', 'email:digest', 'report:new', 'img'], ['email:digest', 'email:welcome', 'emailextra', 'email', 'report:new', 'report:old', 'image', 'img:resize', '']);
    expect(r.status).toBe(200);
    const brief = r.body.routes.map((x: { taskType: string; pattern: string | null; match: string; warning: string | null }) => [x.taskType, x.pattern, x.match, x.warning !== null]);
    expect(brief).toEqual([
      ['email:digest', 'email:digest', 'exact', false],
      ['email:welcome', 'email:', 'prefix', false],
      ['emailextra', 'email', 'prefix', true],
      ['email', 'email', 'exact', false],
      ['report:new', 'report:new', 'exact', false],
      ['report:old', null, 'none', false],
      ['image', null, 'none', false],
      ['img:resize', 'img', 'prefix', false],
      ['', null, 'none', false],
    ]);
    expect(r.body.routes[2].warning).toBe(
      '"email" catches "emailextra" only because the text starts the same: asynq matches plain string prefixes, not ":" segments, so "email" also takes types like "emailextra". If "emailextra" is not meant for that handler, register it exactly or end the pattern with ":" ("email:").',
    );
    expect(r.body.routes[5].explanation).toBe('No pattern matches "report:old": a worker with these patterns fails every such task with handler not found for task "report:old", retries it and finally archives it.');
    expect(r.body.routes[1].explanation).toBe('No exact registration; the longest matching prefix "email:" runs its handler.');
  });

  it('warns when a prefix stops inside a segment, not when it ends at a ":" of the type', async () => {
    const r = await explainOf(['a', 'b:', 'c-'], ['a:x', 'ab', 'b:x', 'c-x', 'a']);
    expect(r.body.routes.map((x: { warning: string | null }) => x.warning !== null)).toEqual([false, true, false, true, false]);
  });

  it('refuses invalid pattern sets with asynq\'s own texts', async () => {
    const blank = await explainOf(['ok', ' \t'], ['x']);
    expect(blank.status).toBe(400);
    expect(blank.body.error).toEqual({ code: 'invalid_argument', message: 'asynq: invalid pattern', field: 'patterns.1', pattern: ' \t' });
    const empty = await explainOf([''], []);
    expect(empty.body.error.message).toBe('asynq: invalid pattern');
    const dup = await explainOf(['email:', 'report', 'email:'], ['x']);
    expect(dup.status).toBe(400);
    expect(dup.body.error).toMatchObject({ message: 'asynq: multiple registrations for email:', field: 'patterns.2' });
  });

  it('is a read: allowed in read-only mode, yet refused from other sites and without a JSON body', async () => {
    const before = await snapshot(redis);
    expect((await explainOf(['a'], ['a'])).status).toBe(200);
    const cross = await postJson(routes.explain.POST, '/api/routing/explain', { patterns: [], taskTypes: [] }, { origin: 'http://evil.example' });
    expect(cross.status).toBe(403);
    expect(cross.body.error.code).toBe('forbidden');
    const crossFetch = await postJson(routes.explain.POST, '/api/routing/explain', { patterns: [], taskTypes: [] }, { 'sec-fetch-site': 'cross-site' });
    expect(crossFetch.status).toBe(403);
    const form = await callRoute(routes.explain.POST, '/api/routing/explain', {}, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"patterns":[],"taskTypes":[]}' });
    expect(form.status).toBe(415);
    const notJson = await callRoute(routes.explain.POST, '/api/routing/explain', {}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(notJson.status).toBe(400);
    for (const body of [{ patterns: ['a'] }, { patterns: [1], taskTypes: [] }, { patterns: [], taskTypes: [], x: 1 }]) {
      const r = await postJson(routes.explain.POST, '/api/routing/explain', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect(await snapshot(redis)).toEqual(before);
  });

  it('leaves the re-run, a mutation, refused in read-only mode', async () => {
    await seedFailed(redis, { queue: 'q', type: 't', state: 'archived', error: notFoundError('t') });
    const before = await snapshot(redis);
    const r = await postJson(routes.rerun.POST, '/api/handler-not-found/rerun', { queue: 'q', taskType: 't' });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('read_only');
    expect(await snapshot(redis)).toEqual(before);
  });
});

describe('GET /api/routing/patterns', () => {
  const read = () => get(routes.patterns.GET, '/api/routing/patterns');

  it('reads an array or { patterns } from ASYNQLENS_ROUTING_FILE on every request', async () => {
    writeFileSync(file, JSON.stringify(['email:', 'report:new']));
    expect((await read()).body).toEqual({ patterns: ['email:', 'report:new'], source: file, problem: null });
    writeFileSync(file, JSON.stringify({ patterns: ['img'] }));
    expect((await read()).body).toEqual({ patterns: ['img'], source: file, problem: null });
  });

  it('says why a file cannot be used instead of failing', async () => {
    writeFileSync(file, '{ nope');
    const bad = await read();
    expect(bad.status).toBe(200);
    expect(bad.body.patterns).toEqual([]);
    expect(bad.body.problem).toContain('not valid JSON');
    writeFileSync(file, JSON.stringify({ patterns: [1] }));
    expect((await read()).body.problem).toBe(`ASYNQLENS_ROUTING_FILE ${file}:1: Entry patterns.0 of group \`routing-file\` must be a string; it is left out.`);
    writeFileSync(file, '[\n  "a",\n  "a"\n]');
    expect((await read()).body).toEqual({ patterns: ['a'], source: file, problem: `ASYNQLENS_ROUTING_FILE ${file}:3: asynq: multiple registrations for a (pattern 1 of group \`routing-file\`); the repeat is left out.` });
    rmSync(file);
    expect((await read()).body.problem).toContain('cannot be read');
  });
});
