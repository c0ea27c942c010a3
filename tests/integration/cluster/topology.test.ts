/**
 * The harness cluster and the core's topology helpers against real redis-server: keySlot
 * agrees with CLUSTER KEYSLOT, masterNodes and nodeForSlot find the nodes the slot map names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from 'ioredis';
import * as k from '@/lib/asynq/keys';
import { clusterReady, keySlot, masterNodes, nodeAddress, nodeForSlot, queueSlot } from '@/lib/asynq/topology';
import { startRedisCluster, type RunningCluster } from '../../support/redis-cluster';

let cluster: RunningCluster;
let client: Cluster;

beforeAll(async () => {
  const started = performance.now();
  cluster = await startRedisCluster({ label: 'topology' });
  // Start-up stays cheap enough to run a cluster per test file (typically 2.1 s: a new cluster
  // node keeps its state at "fail" for its first 2 s).
  expect(performance.now() - started).toBeLessThan(15_000);
  client = cluster.client();
});

afterAll(async () => {
  await client?.quit();
  await cluster?.stop();
});

describe('harness cluster', () => {
  it('has three masters that together serve every slot', async () => {
    const slots = (await client.cluster("SLOTS")) as unknown as [number, number, [string, number]][];
    expect(slots).toHaveLength(3);
    expect(slots.reduce((n, [from, to]) => n + (to - from + 1), 0)).toBe(16384);
    expect(new Set(slots.map(([, , [host, port]]) => `${host}:${port}`))).toEqual(new Set(cluster.nodes));
  });
});

describe('keySlot', () => {
  it('equals CLUSTER KEYSLOT for asynq keys, odd queue names and binary-looking keys', async () => {
    const queues = ['default', 'critical', 'a}b', '{x', 'ünï', 'a b', 'q:1', '😀', '}x', ''];
    const keys = [
      k.ALL_QUEUES, k.ALL_SERVERS, 'asynq:servers:{host:1:abc}', 'foo', '{}', '{', '}{',
      ...queues.flatMap((q) => [k.pendingKey(q), k.taskKey(q, 'id-1'), k.uniqueKey(q, 't', Buffer.from('p'))]),
    ];
    const node = cluster.masters()[0]!;
    try {
      for (const key of keys) expect([key, keySlot(key)]).toEqual([key, await node.cluster('KEYSLOT', key)]);
    } finally {
      await node.quit();
    }
  });
});

describe('masterNodes and nodeForSlot', () => {
  it('lists every master once, in a stable order', async () => {
    const a = (await masterNodes(client)).map(nodeAddress);
    const b = (await masterNodes(client)).map(nodeAddress);
    expect(a).toEqual([...cluster.nodes].sort());
    expect(b).toEqual(a);
  });

  it('finds the master holding a queue\'s keys', async () => {
    for (const q of ['default', 'critical', 'low']) {
      const node = await nodeForSlot(client, queueSlot(q));
      await client.set(k.pausedKey(q), '1');
      expect(await node!.exists(k.pausedKey(q))).toBe(1);
    }
  });
});

describe('clusterReady', () => {
  const lazyClient = () => new Cluster(cluster.nodes.map((n) => ({ host: '127.0.0.1', port: Number(n.split(':')[1]) })), { lazyConnect: true });
  const bounded = <T>(work: Promise<T>, ms = 3000) =>
    Promise.race([work.then(() => 'settled'), new Promise<string>((r) => setTimeout(() => r(`no answer within ${ms} ms`), ms))]);

  it('resolves when called while the slot map is known and the ready check is still in flight', async () => {
    // Between CLUSTER SLOTS (status `connect`) and the ready check's CLUSTER INFO (status
    // `ready`): ioredis only answers delayUntilReady waiters at the next connect attempt, so a
    // pipeline that waited there would wait for good on a healthy cluster.
    const fresh = lazyClient();
    try {
      const inWindow = new Promise<string>((resolve) => fresh.once('connect', () => resolve(bounded(clusterReady(fresh)))));
      await fresh.connect();
      expect(await inWindow).toBe('settled');
    } finally {
      fresh.disconnect();
    }
  });

  it('connects a lazy client that never connected, and waits for that attempt', async () => {
    const lazy = lazyClient();
    try {
      expect(lazy.status).toBe('wait');
      expect(await bounded(clusterReady(lazy))).toBe('settled');
      expect(lazy.slots.length).toBe(16384);
    } finally {
      lazy.disconnect();
    }
  });
});
