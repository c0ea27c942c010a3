/**
 * A fleet of real Go asynq servers, and the one truth about it: two worker groups with
 * different muxes on overlapping queues (`billing` on default; `reports` on reports and
 * default), a group aggregator (`notify`), and a server of an older `billing` release that
 * lacks `invoice:refund`. For every (queue, type) the verdict API, the failures API and the
 * routing explainer must agree; then the fix (stop the old release, re-run) turns the conflict
 * into handled. The TypeScript task server of the fleet publishes its patterns (no file entry).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Server, ServeMux } from '@asynqlens/asynq';
import type { RoutingVerdictDto, RoutingVerdictsDto } from '@/lib/contract/routing-verdicts';
import { routingVerdictsSchema } from '@/lib/contract/routing-verdicts';
import type { HandlerNotFoundDto } from '@/lib/contract/triage';
import { forgetTriageScans } from '@/lib/server/jobs/triage-scans';
import { forgetVerdictEvidence } from '@/lib/server/services/routing-evidence';
import { consoleRoutes } from '../../support/console-routes';
import { waitFor } from '../../support/wait-for';
import { get, openTriageRedis, postJson, postNdjson } from '../../integration/triage/helpers';
import { callRoute } from '../../support/call-route';
import { asynqGo, goDump, goEnqueueMany, startTriageServe, type GoEnqueue, type GoTarget, type TriageServe } from './go';

const DB = 79;
const routes = await consoleRoutes();
const dir = mkdtempSync(join(tmpdir(), 'asynqlens-fleet-'));
const file = join(dir, 'routing.json');
asynqGo.requireGo('routing verdicts of a Go fleet');

const GROUPS = [
  { name: 'billing', queues: ['default'], patterns: ['invoice:', 'billing:charge'] },
  { name: 'reports', queues: ['reports', 'default'], patterns: ['report:', 'invoice:'] },
  { name: 'notify', queues: ['notify'], patterns: ['notify:batch'], emits: ['notify:batch'] },
];
const keep = { maxRetry: 0, retentionSeconds: 3600 };
const tasks = (n: number, type: string, queue: string, options: GoEnqueue['options'] & { group?: string } = keep): GoEnqueue[] =>
  Array.from({ length: n }, () => ({ type, queue, options: { ...keep, ...options } }));

describe.skipIf(asynqGo.noGo)('routing verdicts of a Go fleet', () => {
  let redis: Redis;
  let target: GoTarget;
  const servers: TriageServe[] = [];
  let oldRelease: TriageServe | undefined;
  let ts: Server | undefined;

  beforeAll(async () => {
    const r = await openTriageRedis(DB);
    redis = r.redis;
    target = { port: r.port, db: DB };
    writeFileSync(file, JSON.stringify({ groups: GROUPS }, null, 2));
    process.env.ASYNQLENS_ROUTING_FILE = file;
    forgetTriageScans();
    forgetVerdictEvidence();
  });
  afterAll(async () => {
    await ts?.shutdown();
    await Promise.all([...servers, ...(oldRelease ? [oldRelease] : [])].map((s) => s.stop()));
    delete process.env.ASYNQLENS_ROUTING_FILE;
    forgetTriageScans();
    forgetVerdictEvidence();
    rmSync(dir, { recursive: true, force: true });
    await redis?.quit();
  });

  const fresh = async (query = ''): Promise<RoutingVerdictsDto> => {
    forgetTriageScans();
    forgetVerdictEvidence();
    const r = await get(routes.verdicts.GET, `/api/routing/verdicts?wait=5000${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const d = routingVerdictsSchema.parse(r.body);
    expect(d.complete).toBe(true);
    return d;
  };

  /** Every surface's answer for every (queue, type) agrees with the verdict. */
  async function expectAgreement(d: RoutingVerdictsDto): Promise<void> {
    const nf = (await get(routes.notFound.GET, '/api/handler-not-found?wait=5000')).body as HandlerNotFoundDto;
    expect(nf.complete).toBe(true);
    const failing = new Map(nf.groups.map((g) => [`${g.queue}/${g.taskType}`, g]));
    const failures = (await get(routes.failures.GET, '/api/failures?wait=5000')).body as { groups: { kind: string; taskType: string | null; queues: { queue: string }[] }[] };
    const fromFailures = new Set(failures.groups.filter((g) => g.kind === 'handler_not_found').flatMap((g) => g.queues.map((q) => `${q.queue}/${g.taskType}`)));
    expect(fromFailures).toEqual(new Set(failing.keys()));
    for (const key of failing.keys()) expect(d.verdicts.some((v) => `${v.queue}/${v.taskType}` === key), `${key} has a verdict`).toBe(true);

    for (const v of d.verdicts) {
      const key = `${v.queue}/${v.taskType}`;
      const g = failing.get(key);
      const kinds = v.evidence.map((e) => e.kind);
      // Failures API ⇔ handler_not_found evidence, and the verdict dates from the first failure.
      expect(kinds.includes('handler_not_found'), key).toBe(g !== undefined);
      if (g) {
        expect(['conflict', 'not_handled'], key).toContain(v.verdict);
        expect(v.since, key).toBe(g.firstFailedAt);
      }
      // The routing explainer, with each group's patterns, ⇔ declared_route naming that group.
      for (const group of GROUPS.filter((x) => x.queues.includes(v.queue))) {
        const ex = await postJson(routes.explain.POST, '/api/routing/explain', { patterns: group.patterns, taskTypes: [v.taskType] });
        const routed = ex.body.routes[0].match !== 'none';
        const declared = v.evidence.some((e) => e.kind === 'declared_route' && e.detail.startsWith(`group \`${group.name}\``));
        expect(declared, `${key} in ${group.name}`).toBe(routed);
      }
      // The one-pair answer (task detail, enqueue pre-check) is the same verdict.
      const one = (await get(routes.verdicts.GET, `/api/routing/verdicts?wait=0&queue=${encodeURIComponent(v.queue)}&type=${encodeURIComponent(v.taskType)}`)).body as RoutingVerdictsDto;
      expect(one.verdicts).toEqual([v]);
      const pre = await callRoute(routes.check.POST, '/api/x', { qname: v.queue }, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: v.taskType }) });
      expect(pre.body.routing, `${key}: the enqueue pre-check`).toEqual(v);
    }
  }

  it('agrees on every (queue, type), names the conflict in plain words, and clears it after the fix', async () => {
    // An older billing release, running alone first: it lacks invoice:refund.
    oldRelease = await startTriageServe(target, ['--queues', 'default:1', '--handle', 'invoice:create', '--handle', 'billing:charge']);
    await goEnqueueMany(target, [...tasks(3, 'invoice:refund', 'default'), ...tasks(2, 'invoice:create', 'default')]);
    await waitFor('the old release to archive invoice:refund', async () => ((await goDump(target)).tasks.default?.archived.length === 3 ? true : null), 20_000);

    servers.push(await startTriageServe(target, ['--queues', 'default:1', '--handle', 'invoice:', '--handle', 'billing:charge']));
    servers.push(await startTriageServe(target, ['--queues', 'reports:1,default:1', '--handle', 'report:', '--handle', 'invoice:']));
    servers.push(await startTriageServe(target, ['--queues', 'notify:1', '--handle', 'notify:batch', '--aggregate-into', 'notify:batch', '--group-max-size', '3', '--group-grace-seconds', '600']));
    // The fleet's TypeScript server publishes its patterns with its record.
    ts = new Server(redis, { queues: { ts: 1 }, heartbeatIntervalMs: 500, logger: { info: () => {}, warn: () => {}, error: () => {} } });
    await ts.start(new ServeMux().handleFunc('ts:', () => {}));

    await goEnqueueMany(target, [
      ...tasks(4, 'report:daily', 'reports'),
      ...tasks(2, 'audit:log', 'reports'),
      ...tasks(3, 'notify:event', 'notify', { group: 'user:1' }),
      ...tasks(2, 'notify:event', 'notify', { group: 'user:2' }),
      ...tasks(1, 'idle:x', 'idle'),
    ]);
    await waitFor('the fleet to settle', async () => {
      const d = await goDump(target);
      const busy = ['default', 'reports', 'notify'].some((q) => (d.tasks[q]?.pending.length ?? 0) + (d.tasks[q]?.active.length ?? 0) > 0);
      const aggregated = (d.tasks.notify?.completed.length ?? 0) + (d.tasks.notify?.pending.length ?? 0) > 0;
      return !busy && aggregated && (d.tasks.reports?.archived.length ?? 0) === 2 ? true : null;
    }, 30_000);

    const d = await fresh();
    const m = new Map(d.verdicts.map((v) => [`${v.queue}/${v.taskType}`, v]));
    const verdict = (k: string) => m.get(k)?.verdict;
    expect(verdict('default/invoice:refund')).toBe('conflict');
    const refund = m.get('default/invoice:refund')!;
    expect(refund.summary).toMatch(/^Declared by group `billing` and declared by group `reports`, but since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC a server on `default` without this handler has failed 3 tasks \(3 archived\): a server from an older release may still run/);
    expect(verdict('default/invoice:create')).toBe('handled');
    expect(verdict('reports/report:daily')).toBe('handled');
    expect(verdict('reports/audit:log')).toBe('not_handled');
    expect(m.get('notify/notify:event')).toMatchObject({ verdict: 'aggregated', emits: ['notify:batch'] });
    expect(verdict('idle/idle:x')).toBe('unknown');
    expect((await fresh('&queue=ts&type=ts:anything')).verdicts[0]).toMatchObject({ verdict: 'handled' });
    expect((await fresh('&queue=ts&type=other')).verdicts[0]).toMatchObject({ verdict: 'not_handled' });
    // billing:charge on default: billing routes it, reports (also on default) does not.
    expect((await fresh('&queue=default&type=billing:charge')).verdicts[0]).toMatchObject({ verdict: 'conflict' });
    await expectAgreement(d);

    // The fix: the old release stops, the failed tasks are re-run and complete.
    const before = (await goDump(target)).servers.length;
    await oldRelease.stop();
    oldRelease = undefined;
    await waitFor('the old release to leave the registry', async () => ((await goDump(target)).servers.length === before - 1 ? true : null), 20_000);
    const rerun = await postNdjson(routes.rerun.POST, '/api/handler-not-found/rerun', { queue: 'default', taskType: 'invoice:refund' });
    expect(rerun.lines.at(-1)).toMatchObject({ result: { succeeded: 3 } });
    await waitFor('the re-run tasks to complete', async () => ((await goDump(target)).tasks.default?.completed.filter((t) => t.type === 'invoice:refund').length === 3 ? true : null), 20_000);
    const after = await fresh();
    const fixed = after.verdicts.find((v) => v.queue === 'default' && v.taskType === 'invoice:refund') as RoutingVerdictDto;
    expect(fixed).toMatchObject({ verdict: 'handled', since: null });
    expect(fixed.evidence.map((e) => e.kind)).toContain('seen_completed');
    await expectAgreement(after);
  }, 120_000);
});
