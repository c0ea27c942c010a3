/**
 * Nothing is lost when a server stops: a graceful shutdown waits, then requeues what is
 * still running; a killed server's tasks are failed with `asynq: task lease expired` by any
 * other server's recoverer once the lease is over (plus asynq's 30 s clock-skew slack), then
 * retried and processed like any failed task.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { enqueueTask } from '@/lib/asynq/client/enqueue';
import * as k from '@/lib/asynq/keys';
import { ServeMux } from '@/lib/asynq/worker';
import { resolveConfig } from '@/lib/asynq/worker/config';
import { recover } from '@/lib/asynq/worker/recoverer';
import { testRedisUrl, useTestRedis } from '../../support/test-redis';
import { readTask, startTestServer, stateOf, useServers, waitFor } from './helpers';

const DB = 32;
const redis = await useTestRedis(DB);
const servers = useServers();

/** A clock `ms` ahead: the recoverer then sees leases as long expired. */
const ahead = (ms: number) => ({ now: () => new Date(Date.now() + ms) });

describe('graceful shutdown', () => {
  it('lets a task that finishes within the timeout complete normally', async () => {
    const mux = new ServeMux().handleFunc('short', () => new Promise<void>((r) => setTimeout(r, 300)));
    const info = await enqueueTask(redis, { type: 'short', payload: null }, {}, new Date());
    const { server } = await startTestServer(redis, mux, { shutdownTimeoutMs: 3000 });
    await waitFor('active', async () => (await stateOf(redis, 'default', info.id)) === 'active');
    await server.shutdown();
    expect(await stateOf(redis, 'default', info.id)).toBe('deleted');
    expect(await redis.get(k.processedTotalKey('default'))).toBe('1');
  });

  it('requeues unfinished tasks to the tail of pending (next to run) after the timeout', async () => {
    let sawAbort = false;
    const mux = new ServeMux().handleFunc('stuck', (ctx) => new Promise<void>(() => ctx.signal.addEventListener('abort', () => (sawAbort = true))));
    const first = await enqueueTask(redis, { type: 'stuck', payload: null }, {}, new Date());
    const { server } = await startTestServer(redis, mux, { concurrency: 1, shutdownTimeoutMs: 300 });
    await waitFor('active', async () => (await stateOf(redis, 'default', first.id)) === 'active');
    const later = await enqueueTask(redis, { type: 'stuck', payload: null }, {}, new Date());
    const t0 = Date.now();
    await server.shutdown();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(280);
    const t = await readTask(redis, 'default', first.id);
    expect(t?.state).toBe('pending');
    expect(t?.pendingSince).toBeNull(); // asynq's Requeue writes no pending_since
    expect(t?.msg.retried).toBe(0);
    expect(await redis.lrange(k.pendingKey('default'), 0, -1)).toEqual([later.id, first.id]);
    expect(await redis.llen(k.activeKey('default'))).toBe(0);
    expect(await redis.zcard(k.leaseKey('default'))).toBe(0);
    expect(sawAbort).toBe(true);
    expect(await redis.zcard(k.ALL_SERVERS)).toBe(0);
    expect(await redis.keys('asynq:workers:*')).toEqual([]);
  });

  it('stop() takes no new task but lets running ones finish', async () => {
    let release = () => {};
    const mux = new ServeMux().handleFunc('gate', () => new Promise<void>((r) => (release = r)));
    const a = await enqueueTask(redis, { type: 'gate', payload: null }, {}, new Date());
    const { server } = await startTestServer(redis, mux, { concurrency: 1 });
    servers.push(server);
    await waitFor('active', async () => (await stateOf(redis, 'default', a.id)) === 'active');
    await server.stop();
    const b = await enqueueTask(redis, { type: 'gate', payload: null }, {}, new Date());
    release();
    await waitFor('a done', async () => (await stateOf(redis, 'default', a.id)) === 'deleted');
    await new Promise((r) => setTimeout(r, 300));
    expect(await stateOf(redis, 'default', b.id)).toBe('pending');
    expect(server.status).toBe('stopped');
    await expect(server.start(mux)).rejects.toThrow('asynq: the server is in the stopped state. Waiting for shutdown.');
  });
});

describe('a killed server', () => {
  /** Runs fixtures/hanging-worker.ts until the task is active, then SIGKILLs it. */
  async function killMidTask(taskId: string): Promise<void> {
    const script = fileURLToPath(new URL('./fixtures/hanging-worker.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, testRedisUrl(DB)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    try {
      await waitFor(`task active in child (stderr: ${err})`, async () => (await stateOf(redis, 'default', taskId)) === 'active', 30_000);
      await waitFor('child heartbeat', async () => (await redis.keys('asynq:workers:*')).length > 0);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  }

  it('leaves its task active with a lease; another server recovers, retries and processes it', async () => {
    const info = await enqueueTask(redis, { type: 'hang', payload: null }, { maxRetry: 3 }, new Date());
    await killMidTask(info.id);
    // Still active: a dead server writes nothing.
    expect(await stateOf(redis, 'default', info.id)).toBe('active');
    expect(await redis.zscore(k.leaseKey('default'), info.id)).not.toBeNull();

    // A live server's recoverer, a minute and a half later (its lease was for 30 s).
    await recover(redis, resolveConfig({ clock: ahead(90_000), retryDelay: () => 0 }));
    const t = await readTask(redis, 'default', info.id);
    expect(t?.state).toBe('retry');
    expect(t?.msg.retried).toBe(1);
    expect(t?.msg.errorMsg).toBe('asynq: task lease expired');
    expect(await redis.get(k.failedTotalKey('default'))).toBe('1');

    // That server, now with a handler that works, forwards and processes it.
    const mux = new ServeMux().handleFunc('hang', () => {});
    servers.push((await startTestServer(redis, mux, { clock: ahead(90_000) })).server);
    await waitFor('processed', async () => (await stateOf(redis, 'default', info.id)) === 'deleted');
    expect(await redis.get(k.processedTotalKey('default'))).toBe('2');
  }, 60_000);

  it('archives a recovered task whose retries were used up', async () => {
    const info = await enqueueTask(redis, { type: 'hang', payload: null }, { maxRetry: 0 }, new Date());
    await killMidTask(info.id);
    const mux = new ServeMux().handleFunc('hang', () => {});
    servers.push((await startTestServer(redis, mux, { clock: ahead(90_000) })).server);
    const t = await waitFor('archived', () => readTask(redis, 'default', info.id).then((t) => (t?.state === 'archived' ? t : null)));
    expect(t.msg.errorMsg).toBe('asynq: task lease expired');
  }, 60_000);

  it('is not recovered while its lease (plus the 30 s slack) is still running', async () => {
    const info = await enqueueTask(redis, { type: 'hang', payload: null }, {}, new Date());
    await killMidTask(info.id);
    await recover(redis, resolveConfig({ clock: ahead(20_000) }));
    expect(await stateOf(redis, 'default', info.id)).toBe('active');
  }, 60_000);
});
