/**
 * Leases work across implementations: when a Go server dies mid-task, our recoverer fails its
 * task with asynq's `asynq: task lease expired` and our server then processes it.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Server } from '@/lib/asynq/worker';
import { resolveConfig } from '@/lib/asynq/worker/config';
import { recover } from '@/lib/asynq/worker/recoverer';
import { openTestRedis } from '../../support/test-redis';
import { readTask, stateOf, waitFor } from '../../integration/worker/helpers';
import { goHarness, redisArgs } from '../go-harness';
import { interopConfig, interopMux } from './handlers';

const DB = 44;
const asynqGo = goHarness('worker');
asynqGo.requireGo('cross-implementation lease recovery');

describe.skipIf(asynqGo.noGo)('a killed Go server’s task', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await openTestRedis(DB);
  });
  afterAll(async () => {
    await redis?.quit();
  });

  it('is recovered by our recoverer and then processed by our server', async () => {
    const [res] = await asynqGo.json<{ ok: boolean }[]>('enqueue-many', redisArgs(DB), { stdin: [{ type: 'slow:forever', payloadBase64: null, options: { taskId: 'victim', maxRetry: 3 } }] });
    expect(res?.ok).toBe(true);
    const go = await asynqGo.start('serve', [...redisArgs(DB), '--queues', 'default:1']);
    try {
      await waitFor('active on the Go server', async () => (await stateOf(redis, 'default', 'victim')) === 'active', 15_000);
    } finally {
      await go.kill();
    }
    // 90 s later by our clock: the Go server's 30 s lease plus asynq's 30 s slack are over.
    const later = { now: () => new Date(Date.now() + 90_000) };
    await recover(redis, resolveConfig({ clock: later, retryDelay: () => 0 }));
    const t = await readTask(redis, 'default', 'victim');
    expect([t?.state, t?.msg.retried, t?.msg.errorMsg]).toEqual(['retry', 1, 'asynq: task lease expired']);

    // Our server, given a handler that finishes (ok: semantics for this type), takes it over.
    const mux = interopMux(redis).handleFunc('slow:forever', () => {});
    const ours = new Server(redis, { ...interopConfig(), clock: later, delayedTaskCheckIntervalMs: 100 });
    await ours.start(mux);
    try {
      await waitFor('processed', async () => (await stateOf(redis, 'default', 'victim')) === 'deleted', 10_000);
    } finally {
      await ours.shutdown();
    }
  }, 60_000);
});
