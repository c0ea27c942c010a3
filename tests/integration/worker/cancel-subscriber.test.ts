/**
 * The cancel subscription of a server started on a connection the core made with connect():
 * that connection turns its offline queue off once it has connected (so a request fails fast
 * while Redis is away), and a duplicate copies that setting. The subscriber must still
 * subscribe at its first try, so a cancel published right after start() reaches the task, and
 * nothing is logged about the subscription (on one server and on a 3-master cluster).
 */
import type { Cluster, Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { enqueueTask } from '@/lib/asynq/client/enqueue';
import { decodeTaskMessage } from '@/lib/asynq/codec';
import { connect } from '@/lib/asynq/connection';
import * as k from '@/lib/asynq/keys';
import type { RedisClient } from '@/lib/asynq/redis-client';
import { Server, ServeMux } from '@/lib/asynq/worker';
import { startRedisCluster, type RunningCluster } from '../../support/redis-cluster';
import { testRedisUrl } from '../../support/test-redis';
import { waitFor } from './helpers';

const DB = 38;
const clients: RedisClient[] = [];
let cluster: RunningCluster | undefined;

afterAll(async () => {
  await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
  await cluster?.stop();
});

/**
 * Connects `client` the way a service does before starting a server (one command, so its first
 * connect is over), starts a server on it, and cancels a running task right after start().
 */
async function cancelRightAfterStart(client: RedisClient, queue: string): Promise<{ error: string; logs: string[] }> {
  clients.push(client);
  await client.del(k.pendingKey(queue));
  const logs: string[] = [];
  const log = (level: string) => (m: string) => void logs.push(`${level}: ${m}`);
  let running: () => void = () => undefined;
  const started = new Promise<void>((r) => (running = r));
  const mux = new ServeMux().handleFunc('slow', (ctx) => {
    running();
    return new Promise<void>((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error)));
  });
  const info = await enqueueTask(client, { type: 'slow', payload: null }, { queue, maxRetry: 0 }, new Date());
  const server = new Server(client, { concurrency: 1, queues: { [queue]: 1 }, taskCheckIntervalMs: 100, shutdownTimeoutMs: 1000, logger: { info: log('info'), warn: log('warn'), error: log('error') } });
  await server.start(mux);
  try {
    await started;
    // PUBLISH answers how many subscribers heard it: 1 once our subscriber is up.
    await waitFor('the cancel subscriber', async () => (await client.publish(k.CANCEL_CHANNEL, info.id)) >= 1, 3000);
    const msg = await waitFor('the task archived', async () => {
      const raw = await client.hgetBuffer(k.taskKey(queue, info.id), 'state');
      return raw?.toString() === 'archived' ? client.hgetBuffer(k.taskKey(queue, info.id), 'msg') : null;
    });
    return { error: decodeTaskMessage(msg).errorMsg, logs: logs.filter((l) => /cancel/i.test(l)) };
  } finally {
    await server.shutdown();
  }
}

describe('cancel subscription on a connection made by connect()', () => {
  it('one server: subscribes at the first try; a cancel right after start() cancels the task', async () => {
    const client = connect({ kind: 'standalone', url: testRedisUrl(DB) }) as Redis;
    await client.ping();
    const out = await cancelRightAfterStart(client, 'cancel-now');
    expect(out).toEqual({ error: 'context canceled', logs: [] });
  });

  it('a Redis Cluster: the same', async () => {
    cluster = await startRedisCluster({ label: 'cancel' });
    const client = connect({ kind: 'cluster', url: 'redis://127.0.0.1', nodes: cluster.nodes.map((n) => ({ host: '127.0.0.1', port: Number(n.split(':')[1]) })) }) as Cluster;
    await client.ping();
    const out = await cancelRightAfterStart(client, 'cancel-now');
    expect(out).toEqual({ error: 'context canceled', logs: [] });
  }, 30_000);
});
