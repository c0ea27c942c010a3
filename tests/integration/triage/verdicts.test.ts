/**
 * GET /api/routing/verdicts against a seeded fleet on a real redis-server: every verdict with
 * its evidence, the one-pair answer, the routing file's problems by line and rule, and refusals
 * of bad input. The same agreement with real Go servers is pinned in tests/interop/triage/fleet.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encodeServerInfo } from '@/lib/asynq/codec';
import * as k from '@/lib/asynq/keys';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedAggregating, seedPending, seedZset } from '@/lib/asynq/testutil/seed';
import type { RoutingVerdictDto, RoutingVerdictsDto } from '@/lib/contract/routing-verdicts';
import { routingVerdictsSchema } from '@/lib/contract/routing-verdicts';
import { forgetTriageScans } from '@/lib/server/jobs/triage-scans';
import { forgetVerdictEvidence } from '@/lib/server/services/routing-evidence';
import { consoleRoutes } from '../../support/console-routes';
import { get, notFoundError, nowSec, openTriageRedis, seedFailed, seedServer } from './helpers';

const DB = 78;
const routes = await consoleRoutes();
const dir = mkdtempSync(join(tmpdir(), 'asynqlens-verdicts-'));
const file = join(dir, 'routing.json');
let redis: Redis;

const FLEET = `{
  "groups": [
    { "name": "billing", "queues": ["default"], "patterns": ["invoice:", "billing:charge"] },
    { "name": "reports", "queues": ["reports"], "patterns": ["report:"] },
    { "name": "notify", "queues": ["notify"], "patterns": ["notify:batch"], "emits": ["notify:batch"] }
  ]
}`;

beforeAll(async () => {
  ({ redis } = await openTriageRedis(DB));
  process.env.ASYNQLENS_ROUTING_FILE = file;
});
afterAll(async () => {
  delete process.env.ASYNQLENS_ROUTING_FILE;
  forgetTriageScans();
  forgetVerdictEvidence();
  rmSync(dir, { recursive: true, force: true });
  await redis.quit();
});
beforeEach(async () => {
  forgetTriageScans();
  forgetVerdictEvidence();
  await redis.flushdb();
  writeFileSync(file, FLEET);
});

async function verdicts(query = ''): Promise<RoutingVerdictsDto> {
  const r = await get(routes.verdicts.GET, `/api/routing/verdicts?wait=5000${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return routingVerdictsSchema.parse(r.body);
}
const byPair = (d: RoutingVerdictsDto) => new Map(d.verdicts.map((v) => [`${v.queue}/${v.taskType}`, v]));
const kinds = (v: RoutingVerdictDto | undefined) => v?.evidence.map((e) => e.kind) ?? [];

describe('GET /api/routing/verdicts', () => {
  it('gives each (queue, type) one verdict with its evidence', async () => {
    const twoHoursAgo = nowSec() - 7200;
    await seedServer(redis, 'srv-billing', { default: 1 }, 'billing-1', 10, new Date((twoHoursAgo - 3600) * 1000));
    await seedServer(redis, 'srv-reports', { reports: 1 }, 'reports-1', 11);
    await seedServer(redis, 'srv-notify', { notify: 1 }, 'notify-1', 12);
    // Declared by billing, yet failing since two hours: a server without the handler ran them.
    for (let i = 0; i < 3; i++) await seedFailed(redis, { queue: 'default', type: 'invoice:pay', state: 'archived', error: notFoundError('invoice:pay'), lastFailedAt: twoHoursAgo + i });
    // Failing and declared by nobody.
    await seedFailed(redis, { queue: 'reports', type: 'audit:x', state: 'retry', error: notFoundError('audit:x') });
    // Completed: a handler ran it.
    await seedZset(redis, 'completed', newTaskMessage({ type: 'report:daily', queue: 'reports', completedAt: nowSec() }), nowSec() + 3600);
    // Group members of notify:event, aggregated into notify:batch.
    for (let i = 0; i < 2; i++) await seedAggregating(redis, newTaskMessage({ type: 'notify:event', queue: 'notify', groupKey: 'user:1' }));
    // A queue no group declares and no server consumes.
    await seedPending(redis, newTaskMessage({ type: 'misc:thing', queue: 'misc' }));

    const d = await verdicts();
    expect(d.complete).toBe(true);
    expect(d.problems).toEqual([]);
    const m = byPair(d);
    expect([...m.keys()]).toEqual(['default/invoice:pay', 'misc/misc:thing', 'notify/notify:event', 'reports/audit:x', 'reports/report:daily']);

    const pay = m.get('default/invoice:pay')!;
    expect(pay.verdict).toBe('conflict');
    expect(pay.since).toBe(new Date(twoHoursAgo * 1000).toISOString().replace('.000', ''));
    expect(pay.summary).toMatch(/^Declared by group `billing`, but since .* UTC a server on `default` without this handler has failed 3 tasks \(3 archived\): a server from an older release may still run/);
    expect(kinds(pay)).toEqual(['declared_route', 'server_consumes_queue', 'handler_not_found']);
    // Once every server on the queue started after the last failure, the culprit is gone.
    await seedServer(redis, 'srv-billing', { default: 1 }, 'billing-1', 10);
    forgetTriageScans();
    expect((await verdicts('&queue=default&type=invoice:pay')).verdicts[0]!.summary).toMatch(/every live server on `default` started after the last failure, so the server that failed them is gone; re-run them\.$/);

    const audit = m.get('reports/audit:x')!;
    expect(audit.verdict).toBe('not_handled');
    expect(kinds(audit)).toContain('no_declared_route');

    expect(m.get('reports/report:daily')).toMatchObject({ verdict: 'handled', since: null });
    expect(kinds(m.get('reports/report:daily'))).toEqual(['declared_route', 'server_consumes_queue', 'seen_completed']);

    expect(m.get('notify/notify:event')).toMatchObject({ verdict: 'aggregated', emits: ['notify:batch'] });
    expect(m.get('notify/notify:event')!.summary).toContain('the group aggregator turns them into `notify:batch`');

    expect(m.get('misc/misc:thing')).toMatchObject({ verdict: 'unknown' });
    expect(kinds(m.get('misc/misc:thing'))).toEqual(['no_server_on_queue']);

    // One queue, and one pair — even a type no task has.
    expect((await verdicts('&queue=reports')).verdicts.map((v) => v.taskType)).toEqual(['audit:x', 'report:daily']);
    const one = await verdicts('&queue=default&type=billing:charge');
    expect(one.verdicts).toHaveLength(1);
    expect(one.verdicts[0]).toMatchObject({ queue: 'default', taskType: 'billing:charge', verdict: 'handled' });
    expect((await verdicts('&queue=default&type=nobody:here')).verdicts[0]).toMatchObject({ verdict: 'not_handled' });
  });

  it('counts a route the TypeScript task server publishes in its record, and a group split on one queue as a conflict', async () => {
    writeFileSync(file, JSON.stringify({ groups: [{ name: 'a', queues: ['shared'], patterns: ['x:'] }, { name: 'b', queues: ['shared'], patterns: ['y:'] }] }));
    const key = k.serverInfoKey('ts-1', 7, 'srv-ts');
    const info = { host: 'ts-1', pid: 7, serverId: 'srv-ts', concurrency: 1, queues: { ts: 1, shared: 1 }, strictPriority: false, status: 'active', startedAt: new Date(), activeWorkerCount: 0, patterns: ['ts:'] };
    await redis.setex(key, 30, Buffer.from(encodeServerInfo(info)));
    await redis.zadd(k.ALL_SERVERS, nowSec() + 30, key);
    await redis.sadd(k.ALL_QUEUES, 'ts', 'shared');

    const ts = (await verdicts('&queue=ts&type=ts:job')).verdicts[0]!;
    expect(ts).toMatchObject({ verdict: 'handled' });
    expect(kinds(ts)).toContain('published_routes');
    expect((await verdicts('&queue=ts&type=other')).verdicts[0]).toMatchObject({ verdict: 'not_handled' });
    const split = (await verdicts('&queue=shared&type=x:1')).verdicts[0]!;
    expect(split.verdict).toBe('conflict');
    expect(split.since).toBeNull();
    // The TS server on `shared` publishes `ts:` only, so it too lacks x:1.
    expect(split.summary).toMatch(/^Declared by group `a`, but group `b` and server `ts-1` pid 7 \(ID `srv-ts`, started \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\) also consume `shared` without a route for it: their servers will fail such tasks with handler not found\.$/);
  });

  it('reports a malformed routing file by file, line and rule, and still answers', async () => {
    await redis.sadd(k.ALL_QUEUES, 'default');
    await seedServer(redis, 'srv', { default: 1 });
    writeFileSync(file, `{
  "groups": [
    { "name": "billing", "queues": ["default"], "patterns": ["invoice:", " ", "invoice:"] },
    { "name": "billing", "queues": ["default"], "patterns": [] },
    { "name": "ghost", "queues": ["nowhere"], "patterns": ["g:"] },
    { "name": "odd", "queues": "default", "patterns": ["o:"] },
    { "name": "num", "patterns": [1, "n:"] }
  ]
}`);
    const d = await verdicts();
    expect(d.groups.map((g) => g.name)).toEqual(['billing', 'ghost', 'num']);
    expect(d.groups[0]!.patterns).toEqual(['invoice:']);
    expect(d.problems.map((p) => [p.rule, p.line, p.field, p.group, p.pattern])).toEqual([
      ['invalid_pattern', 3, 'groups.0.patterns.1', 'billing', ' '],
      ['duplicate_pattern', 3, 'groups.0.patterns.2', 'billing', 'invoice:'],
      ['duplicate_group', 4, 'groups.1.name', 'billing', null],
      ['shape', 6, 'groups.3.queues', 'odd', null],
      ['shape', 7, 'groups.4.patterns.0', 'num', null],
      ['unknown_queue', null, 'groups.ghost', 'ghost', null],
      ['never_matches', null, 'groups.ghost', 'ghost', 'g:'],
      ['unknown_group', null, 'groups.ghost', 'ghost', null],
    ]);
    for (const p of d.problems) expect(p.file).toBe(file);

    writeFileSync(file, '{\n  "groups": [\n    { "name": "x", }\n  ]\n}');
    const bad = await verdicts();
    expect(bad.problems).toHaveLength(1);
    expect(bad.problems[0]).toMatchObject({ rule: 'not_json', line: 3, file });
    expect(bad.groups).toEqual([]);
    rmSync(file);
    expect((await verdicts()).problems[0]).toMatchObject({ rule: 'unreadable', line: null });
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const noQueue = await get(routes.verdicts.GET, '/api/routing/verdicts?type=a');
    expect(noQueue.status).toBe(400);
    expect(noQueue.body.error).toMatchObject({ field: 'type' });
    const wait = await get(routes.verdicts.GET, '/api/routing/verdicts?wait=99999');
    expect(wait.status).toBe(400);
    expect(wait.body.error).toMatchObject({ field: 'wait' });
    const long = await get(routes.verdicts.GET, `/api/routing/verdicts?queue=q&type=${'t'.repeat(1001)}`);
    expect(long.status).toBe(400);
    expect(long.body.error).toMatchObject({ field: 'type' });
  });
});
