/**
 * The same tasks, enqueued by Go's client into two databases, processed by Go's server in one
 * and by ours in the other, with equivalent handlers: the end states must be identical, task
 * by task (state, retried, last error, result, lock) and queue by queue (sizes, counters).
 * Cases that need what a release lacks (headers before v0.26, RevokeTask before v0.25) are left
 * out of that release's run; write/processing.test.ts shows what older servers do with headers.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Server } from '@asynqlens/asynq';
import { uniqueKey } from '@asynqlens/asynq/keys';
import { openTestRedis } from '../../support/test-redis';
import { ASYNQ, goHarness, redisArgs } from '../go-harness';
import { interopConfig, interopMux } from './handlers';
import { queueShape, taskOutcome, type TaskOutcome } from './snapshot';

const GO_DB = 40;
const TS_DB = 41;
const RUN_SECONDS = 7;
const asynqGo = goHarness('worker');
asynqGo.requireGo('worker outcome interop');

interface Case {
  id: string;
  type: string;
  queue?: string;
  payload?: string;
  options?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Replace the lock's value right after enqueue: the task must then not release it. */
  stealLock?: boolean;
  /** What both servers are expected to produce (also checked, so a vacuous match fails). */
  expect: Partial<TaskOutcome>;
}

const CASES: Case[] = [
  { id: 'ok-plain', type: 'ok:plain', expect: { state: 'deleted' } },
  { id: 'ok-unique', type: 'ok:unique', payload: 'u1', options: { uniqueSeconds: 300 }, expect: { state: 'deleted', lock: null } },
  { id: 'ok-stolen', type: 'ok:stolen', payload: 's1', options: { uniqueSeconds: 300, processInSeconds: 2 }, stealLock: true, expect: { state: 'deleted', lock: 'thief' } },
  { id: 'result', type: 'result:r', payload: 'abc', options: { retentionSeconds: 3600 }, expect: { state: 'completed', result: Buffer.from('done:abc').toString('base64'), completedAtSet: true } },
  { id: 'result-unique', type: 'result:u', payload: 'u2', options: { retentionSeconds: 3600, uniqueSeconds: 300 }, expect: { state: 'completed', lock: null } },
  { id: 'result-headers', type: 'result:h', payload: 'h', headers: { tenant: 'acme', trace: 'x1' }, options: { retentionSeconds: 60 }, expect: { state: 'completed', headers: { tenant: 'acme', trace: 'x1' } } },
  { id: 'fail-retry', type: 'fail:a', payload: 'u3', options: { maxRetry: 3, uniqueSeconds: 300 }, expect: { state: 'retry', retried: 1, lastError: 'fail: fail:a', lock: 'fail-retry' } },
  { id: 'fail-archive', type: 'fail:b', options: { maxRetry: 0 }, expect: { state: 'archived', retried: 0, lastError: 'fail: fail:b' } },
  { id: 'flaky-exhausted', type: 'flaky:c', options: { maxRetry: 2 }, expect: { state: 'archived', retried: 2, lastError: 'flaky: flaky:c' } },
  { id: 'notfound-archive', type: 'missing:x', options: { maxRetry: 0 }, expect: { state: 'archived', retried: 0, lastError: 'handler not found for task "missing:x"' } },
  { id: 'notfound-retry', type: 'report:new', options: { maxRetry: 5 }, expect: { state: 'retry', retried: 1, lastError: 'handler not found for task "report:new"' } },
  { id: 'timeout', type: 'slow:t', options: { maxRetry: 0, timeoutSeconds: 1 }, expect: { state: 'archived', lastError: 'context deadline exceeded' } },
  { id: 'timeout-retry', type: 'slow:r', options: { maxRetry: 4, timeoutSeconds: 1 }, expect: { state: 'retry', retried: 1, lastError: 'context deadline exceeded' } },
  { id: 'deadline', type: 'slow:d', options: { maxRetry: 0, deadlineUnix: Math.floor(Date.now() / 1000) + 3 }, expect: { state: 'archived', lastError: 'context deadline exceeded' } },
  // A negative Timeout (stored as given by asynq's client) puts the deadline in the past: the
  // handler, which would succeed, is never called and the task fails with the deadline error.
  { id: 'neg-timeout', type: 'ok:negt', options: { maxRetry: 3, timeoutSeconds: -5 }, expect: { state: 'retry', retried: 1, lastError: 'context deadline exceeded' } },
  { id: 'neg-timeout-arch', type: 'ok:nega', options: { maxRetry: 0, timeoutSeconds: -5 }, expect: { state: 'archived', retried: 0, lastError: 'context deadline exceeded' } },
  // A negative Retention keeps nothing: the success is written as done (deleted), not completed.
  { id: 'neg-retention', type: 'result:neg', payload: 'n', options: { retentionSeconds: -60 }, expect: { state: 'deleted' } },
  // Still running at shutdown (30 min default timeout): both servers give it back to pending.
  { id: 'requeued', type: 'slow:q', options: { maxRetry: 0 }, expect: { state: 'pending', retried: 0, lastError: '' } },
  { id: 'skip', type: 'skip:s', options: { maxRetry: 5 }, expect: { state: 'archived', retried: 0, lastError: 'skip: skip retry for the task' } },
  { id: 'revoke', type: 'revoke:r', payload: 'u4', options: { uniqueSeconds: 300, retentionSeconds: 600 }, expect: { state: 'deleted', lock: null } },
  { id: 'later', type: 'ok:later', options: { processInSeconds: 1 }, expect: { state: 'deleted' } },
  { id: 'other-ok', type: 'ok:o', queue: 'other', expect: { state: 'deleted' } },
  { id: 'other-fail', type: 'fail:o', queue: 'other', options: { maxRetry: 1 }, expect: { state: 'retry', retried: 1, lastError: 'fail: fail:o' } },
];

/** The cases this release can run: Go enqueues them all and its server must know RevokeTask. */
const RUNNABLE = CASES.filter((c) => (ASYNQ.headers || !c.headers) && (ASYNQ.revoke || !c.type.startsWith('revoke:')));

const lockOf = (c: Case) => (c.options?.uniqueSeconds ? uniqueKey(c.queue ?? 'default', c.type, c.payload === undefined ? null : Buffer.from(c.payload)) : null);

describe.skipIf(asynqGo.noGo)(`our server and Go’s (asynq ${ASYNQ.version}) leave the same state for the same tasks`, () => {
  let goRedis: Redis;
  let tsRedis: Redis;

  beforeAll(async () => {
    [goRedis, tsRedis] = await Promise.all([openTestRedis(GO_DB), openTestRedis(TS_DB)]);
    const requests = RUNNABLE.map((c) => ({
      queue: c.queue ?? 'default',
      type: c.type,
      payloadBase64: c.payload === undefined ? null : Buffer.from(c.payload).toString('base64'),
      options: { taskId: c.id, ...c.options },
      headers: c.headers ?? null,
    }));
    for (const [db, redis] of [[GO_DB, goRedis], [TS_DB, tsRedis]] as const) {
      const res = await asynqGo.json<{ ok: boolean; error?: string }[]>('enqueue-many', redisArgs(db), { stdin: requests });
      expect(res.filter((r) => !r.ok)).toEqual([]);
      for (const c of RUNNABLE.filter((x) => x.stealLock)) await redis.set(lockOf(c)!, 'thief', 'EX', 300);
    }
    // Both servers run at once, each on its own database, for the same time.
    const goServe = await asynqGo.start('serve', [...redisArgs(GO_DB), '--queues', 'default:1,other:1', '--concurrency', '4', '--retry-delay-seconds', '3600', '--delayed-check-ms', '1000']);
    const ours = new Server(tsRedis, { ...interopConfig(), queues: { default: 1, other: 1 } });
    await ours.start(interopMux(tsRedis));
    await new Promise((r) => setTimeout(r, RUN_SECONDS * 1000));
    await Promise.all([goServe.stop(), ours.shutdown()]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([goRedis?.quit(), tsRedis?.quit()]);
  });

  it.each(RUNNABLE.map((c) => [c.id, c] as const))('task %s', async (_id, c) => {
    const lock = lockOf(c);
    const go = await taskOutcome(goRedis, c.queue ?? 'default', c.id, lock);
    const ts = await taskOutcome(tsRedis, c.queue ?? 'default', c.id, lock);
    expect(ts).toEqual(go);
    expect(go).toMatchObject(c.expect);
  });

  it.each(['default', 'other'])('queue %s: structure sizes and counters', async (q) => {
    const go = await queueShape(goRedis, q);
    const ts = await queueShape(tsRedis, q);
    expect(ts).toEqual(go);
    expect(go.active).toBe(0);
  });

  it('prints the comparison', async () => {
    const rows = await Promise.all(
      RUNNABLE.map(async (c) => {
        const lock = lockOf(c);
        const [go, ts] = await Promise.all([taskOutcome(goRedis, c.queue ?? 'default', c.id, lock), taskOutcome(tsRedis, c.queue ?? 'default', c.id, lock)]);
        return `${c.id.padEnd(17)} go=${go.state}/${go.retried ?? '-'}/${go.lock ?? '-'} ts=${ts.state}/${ts.retried ?? '-'}/${ts.lock ?? '-'} ${JSON.stringify(go.lastError)}`;
      }),
    );
    console.log(`worker interop, task by task (state/retried/lock):\n${rows.join('\n')}`);
    console.log(`queues go: ${JSON.stringify(await queueShape(goRedis, 'default'))} ${JSON.stringify(await queueShape(goRedis, 'other'))}`);
    console.log(`queues ts: ${JSON.stringify(await queueShape(tsRedis, 'default'))} ${JSON.stringify(await queueShape(tsRedis, 'other'))}`);
  });
});
