/**
 * Go writes the not-found error with `%q`, which escapes more than JSON does (DEL, NBSP,
 * zero-width and format characters, control bytes). Types with such characters, failed by a
 * real asynq server, must still be recognised as not-found and grouped under their own type;
 * this core's own worker writes the same bytes, and the task API says `handlerNotFound` for
 * each (the browser never parses the text). A wrapped error is not counted.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlerNotFoundMessage, HandlerNotFoundError, isHandlerNotFoundError } from '@/lib/asynq';
import { forgetTriageScans } from '@/lib/server/jobs/triage-scans';
import { callRoute } from '../../support/call-route';
import { consoleRoutes } from '../../support/console-routes';
import { waitFor } from '../../integration/worker/helpers';
import { get, openTriageRedis } from '../../integration/triage/helpers';
import { asynqGo, goDump, goEnqueueMany, startTriageServe, type GoTarget, type TriageServe } from './go';

const DB = 77;
const routes = await consoleRoutes();
const Q = 'odd';
const TYPES = ['plain:type', 'quote"in', 'back\\slash', 'tab\there', 'nbsp\u00a0x', 'zw\u200bj', 'del\u007f', 'bell\u0007', 'é:日本', 'bom\ufeff', 'emoji😀', 'nel\u0085', 'ls\u2028', 'nul\x00 cr\r', 'bidi\u202eflip', 'astral\u{10ffff}'];
asynqGo.requireGo('not-found detection of odd type names');

describe.skipIf(asynqGo.noGo)('not-found failures of odd type names written by Go', () => {
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

  it('recognises Go\'s %q text for every type and groups each under its own type', async () => {
    server = await startTriageServe(target, ['--queues', `${Q}:1`, '--handle', 'ok:']);
    await goEnqueueMany(target, TYPES.map((type) => ({ type, queue: Q, options: { maxRetry: 0 } })));
    const dump = await waitFor('Go to archive every task', async () => {
      const d = await goDump(target);
      return d.tasks[Q]?.archived.length === TYPES.length ? d : null;
    }, 20_000);
    // Our rendering of Go's %q is exact, byte for byte.
    for (const t of dump.tasks[Q]!.archived) {
      expect(t.lastError, JSON.stringify(t.type)).toBe(handlerNotFoundMessage(t.type));
      expect(new HandlerNotFoundError(t.type).message).toBe(t.lastError);
      expect(isHandlerNotFoundError(t.lastError, t.type)).toBe(true);
      expect(isHandlerNotFoundError(`wrapped: ${t.lastError}`, t.type)).toBe(false);
      expect(isHandlerNotFoundError(t.lastError, `${t.type}x`)).toBe(false);
      const res = await callRoute(routes.task.GET, `/api/queues/${Q}/tasks/${t.id}`, { qname: Q, taskId: t.id });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ type: t.type, lastError: t.lastError, handlerNotFound: true });
    }
    const r = await get(routes.notFound.GET, '/api/handler-not-found');
    expect(r.body.groups.map((g: { taskType: string }) => g.taskType).sort()).toEqual([...TYPES].sort());
    for (const g of r.body.groups) expect(g).toMatchObject({ archived: 1, message: handlerNotFoundMessage(g.taskType) });
  });
});
