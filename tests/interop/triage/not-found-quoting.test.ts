/**
 * One recogniser for asynq's handler-not-found error, proven on what real asynq v0.26.0 servers
 * store: a Go server without handlers for types that need every kind of %q escape (quotes,
 * backslashes, newlines, controls, DEL, NBSP, zero-width and line-separator characters, astral
 * code points) archives their tasks; the core's message for each type is byte-identical to Go's,
 * the task API says `handlerNotFound: true` for each (the browser never parses the text), and
 * triage groups every type. A wrapped error is not counted.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlerNotFoundMessage, HandlerNotFoundError, isHandlerNotFoundError } from '@/lib/asynq';
import { forgetTriageScans } from '@/lib/server/jobs/triage-scans';
import { consoleRoutes } from '../../support/console-routes';
import { callRoute } from '../../support/call-route';
import { waitFor } from '../../integration/worker/helpers';
import { get, openTriageRedis } from '../../integration/triage/helpers';
import { asynqGo, goDump, goEnqueueMany, startTriageServe, type GoTarget, type TriageServe } from './go';

const DB = 66;
const routes = await consoleRoutes();
const Q = 'quoting';
const TYPES = [
  'with "quotes"',
  'back\\slash',
  'new\nline',
  'tab\there\r',
  'bell\x07 and nul\x00',
  'del\x7f',
  'nbsp\u00a0',
  'zero\u200bwidth',
  'line\u2028sep',
  'bidi\u202eflip',
  'café 😀 日本',
  'astral\u{10ffff}',
];
asynqGo.requireGo('handler-not-found quoting interop');

describe.skipIf(asynqGo.noGo)('handler-not-found recognised exactly as real asynq servers write it', () => {
  let redis: Redis;
  let target: GoTarget;
  let server: TriageServe | undefined;

  beforeAll(async () => {
    const r = await openTriageRedis(DB);
    redis = r.redis;
    target = { port: r.port, db: DB };
  });
  afterAll(async () => {
    await server?.stop();
    forgetTriageScans();
    await redis?.quit();
  });

  it('matches Go\'s %q byte for byte for every escape kind, in the core, the task API and triage', async () => {
    server = await startTriageServe(target, ['--queues', `${Q}:1`, '--handle', 'ok:']);
    const ids = await goEnqueueMany(target, TYPES.map((type) => ({ type, queue: Q, options: { maxRetry: 0, retentionSeconds: 3600 } })));
    const dump = await waitFor(`Go to archive all ${TYPES.length} tasks`, async () => {
      const d = await goDump(target);
      return d.tasks[Q]?.archived.length === TYPES.length ? d : null;
    }, 20_000);

    for (const t of dump.tasks[Q]!.archived) {
      // The core's own message — what this core's TypeScript worker stores — equals Go's bytes.
      expect(handlerNotFoundMessage(t.type), JSON.stringify(t.type)).toBe(t.lastError);
      expect(new HandlerNotFoundError(t.type).message).toBe(t.lastError);
      expect(isHandlerNotFoundError(t.lastError, t.type)).toBe(true);
      expect(isHandlerNotFoundError(`wrapped: ${t.lastError}`, t.type)).toBe(false);
      expect(isHandlerNotFoundError(t.lastError, `${t.type}x`)).toBe(false);

      const res = await callRoute(routes.task.GET, `/api/queues/${Q}/tasks/${t.id}`, { qname: Q, taskId: t.id });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ type: t.type, lastError: t.lastError, handlerNotFound: true });
    }
    expect(new Set(dump.tasks[Q]!.archived.map((t) => t.id))).toEqual(new Set(ids));

    forgetTriageScans();
    const groups = await get(routes.notFound.GET, `/api/handler-not-found?queue=${Q}`);
    expect(groups.status).toBe(200);
    expect(groups.body.complete).toBe(true);
    expect(groups.body.groups.map((g: { taskType: string }) => g.taskType).sort()).toEqual([...TYPES].sort());
  });
});
