/**
 * The deploy-order incident end to end against real asynq v0.26.0: a Go server whose mux lacks
 * `report:new` archives (MaxRetry 0) and retries (MaxRetry 5) those tasks; our triage groups
 * them exactly as Go's Inspector reports them (counts, retries spent, first/last failure =
 * Go's LastFailedAt, the stored message, the listening server); after a Go server WITH the
 * handler starts, the re-run through our API moves them back and every one completes.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetTriageScans } from '@/lib/server/jobs/triage-scans';
import { consoleRoutes } from '../../support/console-routes';
import { waitFor } from '../../integration/worker/helpers';
import { get, openTriageRedis, postNdjson } from '../../integration/triage/helpers';
import type { GoTask } from '../go-dump';
import { asynqGo, goDump, goEnqueueMany, startTriageServe, type GoTarget, type TriageServe } from './go';

const DB = 75;
const routes = await consoleRoutes();
const Q = 'triage';
const TYPE = 'report:new';
asynqGo.requireGo('handler-not-found triage interop');

const iso = (s: number) => new Date(s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe.skipIf(asynqGo.noGo)('handler-not-found incident with real asynq servers', () => {
  let redis: Redis;
  let target: GoTarget;
  const servers: TriageServe[] = [];

  beforeAll(async () => {
    const r = await openTriageRedis(DB);
    redis = r.redis;
    target = { port: r.port, db: DB };
  });
  afterAll(async () => {
    for (const s of servers) await s.stop();
    forgetTriageScans();
    await redis?.quit();
  });

  it('groups what Go archived and retried, then completes every task after the re-run', async () => {
    const first = await startTriageServe(target, ['--queues', `${Q}:1`, '--handle', 'ok:', '--handle', 'report:old', '--retry-delay-seconds', '3600']);
    servers.push(first);
    const keep = { retentionSeconds: 3600 };
    const archivedIds = await goEnqueueMany(target, Array.from({ length: 4 }, () => ({ type: TYPE, queue: Q, options: { maxRetry: 0, ...keep } })));
    const retryIds = await goEnqueueMany(target, Array.from({ length: 3 }, () => ({ type: TYPE, queue: Q, options: { maxRetry: 5, ...keep } })));
    const scheduledIds = await goEnqueueMany(target, Array.from({ length: 2 }, () => ({ type: TYPE, queue: Q, options: { processInSeconds: 3600, ...keep } })));
    await goEnqueueMany(target, [{ type: 'ok:ping', queue: Q, options: keep }, { type: 'report:older', queue: Q, options: { maxRetry: 0, ...keep } }]);

    // `report:older` is caught by the `report:old` prefix pattern: it runs and completes.
    const dump = await waitFor('Go to archive 4, retry 3 and complete 2 tasks', async () => {
      const d = await goDump(target);
      const t = d.tasks[Q];
      return t && t.archived.length === 4 && t.retry.length === 3 && t.completed.length === 2 ? d : null;
    }, 20_000);
    const goFailed: GoTask[] = [...dump.tasks[Q]!.archived, ...dump.tasks[Q]!.retry].filter((t) => t.type === TYPE);
    expect(goFailed).toHaveLength(7);
    const goServerIds = dump.servers.map((s) => s.id);
    expect(goServerIds).toHaveLength(1);

    forgetTriageScans();
    const r = await get(routes.notFound.GET, `/api/handler-not-found`);
    expect(r.status).toBe(200);
    expect(r.body.complete).toBe(true);
    expect(r.body.groups).toHaveLength(1);
    const g = r.body.groups[0];
    const failedAt = goFailed.map((t) => t.lastFailedAt);
    expect(g).toEqual({
      queue: Q,
      taskType: TYPE,
      archived: 4,
      retry: 3,
      pending: 0,
      scheduled: 2,
      retriesSpent: goFailed.reduce((n, t) => n + t.retried, 0),
      firstFailedAt: iso(Math.min(...failedAt)),
      lastFailedAt: iso(Math.max(...failedAt)),
      sampleTaskIds: expect.any(Array),
      servers: goServerIds,
      listeners: [expect.objectContaining({ id: goServerIds[0], status: 'active' })],
      message: goFailed[0]!.lastError,
      explanation: expect.stringContaining(`No worker registered a handler for "${TYPE}"`),
    });
    expect(g.retriesSpent).toBe(3);
    expect(new Set(goFailed.map((t) => t.lastError))).toEqual(new Set([`handler not found for task "${TYPE}"`]));
    expect([...g.sampleTaskIds].sort()).toEqual([...archivedIds, ...retryIds].sort());

    const f = await get(routes.failures.GET, '/api/failures');
    expect(f.body.groups[0]).toMatchObject({ kind: 'handler_not_found', taskType: TYPE, count: 7, archived: 4, retry: 3, queues: [{ queue: Q, retry: 3, archived: 4 }] });

    // Clients keep enqueueing while no worker can handle the type.
    await first.stop();
    const pendingIds = await goEnqueueMany(target, Array.from({ length: 2 }, () => ({ type: TYPE, queue: Q, options: keep })));
    forgetTriageScans();
    const waiting = await get(routes.notFound.GET, `/api/handler-not-found?queue=${Q}`);
    expect(waiting.body.groups[0]).toMatchObject({ pending: 2, scheduled: 2, servers: [], listeners: [] });

    // The fix is deployed: a server with the handler; it takes the pending ones at once.
    const second = await startTriageServe(target, ['--queues', `${Q}:1`, '--handle', 'ok:', '--handle', 'report:', '--retry-delay-seconds', '3600']);
    servers.push(second);
    const res = await postNdjson(routes.rerun.POST, '/api/handler-not-found/rerun', { queue: Q, taskType: TYPE });
    expect(res.status).toBe(200);
    expect(res.lines.at(-1)).toEqual({
      result: { succeeded: 7, failed: [], byState: { archived: { found: 4, succeeded: 4, failed: 0 }, retry: { found: 3, succeeded: 3, failed: 0 } }, stopped: false },
    });

    const done = await waitFor('Go to complete the re-run tasks', async () => {
      const d = await goDump(target);
      const t = d.tasks[Q]!;
      return t.completed.filter((x) => x.type === TYPE).length === 9 && t.pending.length === 0 && t.active.length === 0 ? d : null;
    }, 20_000);
    const after = done.tasks[Q]!;
    expect(after.archived.filter((t) => t.type === TYPE)).toEqual([]);
    expect(after.retry).toEqual([]);
    expect(after.completed.filter((t) => t.type === TYPE).map((t) => t.id).sort()).toEqual([...archivedIds, ...retryIds, ...pendingIds].sort());
    expect(after.scheduled.map((t) => t.id).sort()).toEqual([...scheduledIds].sort());
    const handled = second.handled().filter((h) => h.type === TYPE);
    expect(handled.map((h) => h.id).sort()).toEqual([...archivedIds, ...retryIds, ...pendingIds].sort());
    expect(new Set(handled.map((h) => h.pattern))).toEqual(new Set(['report:']));

    const finalView = await get(routes.notFound.GET, '/api/handler-not-found');
    expect(finalView.body.groups).toEqual([]);
  });
});
