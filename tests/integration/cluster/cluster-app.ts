/**
 * The app on the harness cluster: starts a private 3-master cluster and points the route
 * handlers at it (ASYNQLENS_REDIS_CLUSTER_NODES, set before any route module is imported), and
 * picks queue names whose slots land on every master.
 */
import { Redis, type Cluster } from 'ioredis';
import { expect } from 'vitest';
import { queueSlot } from '@/lib/asynq/topology';
import { callRoute, type Handler, type JsonBody } from '../../support/call-route';
import { startRedisCluster, type RunningCluster } from '../../support/redis-cluster';

export interface ClusterApp {
  cluster: RunningCluster;
  /** A test-side Cluster client for seeding and checking. */
  redis: Cluster;
  stop(): Promise<void>;
}

export async function startClusterApp(label: string): Promise<ClusterApp> {
  const cluster = await startRedisCluster({ label });
  process.env.REDIS_URL = `redis://${cluster.nodes[0]}`;
  process.env.ASYNQLENS_REDIS_CLUSTER_NODES = cluster.nodesEnv;
  const redis = cluster.client();
  return {
    cluster,
    redis,
    stop: async () => {
      await redis.quit();
      await cluster.stop();
    },
  };
}

/** Each master's address → the queues (from `prefix-0`, `prefix-1`, ...) it serves, `perMaster` each. */
export async function queuesPerMaster(redis: Cluster, prefix: string, perMaster: number): Promise<Map<string, string[]>> {
  const owners = await slotOwners(redis);
  const out = new Map<string, string[]>();
  for (let i = 0; [...out.values()].reduce((n, qs) => n + qs.length, 0) < owners.size * perMaster; i++) {
    const q = `${prefix}-${i}`;
    const owner = ownerOf(owners, queueSlot(q));
    const list = out.get(owner) ?? [];
    if (list.length < perMaster) out.set(owner, [...list, q]);
  }
  return out;
}

/** CLUSTER SLOTS as `address → [from, to][]`. */
export async function slotOwners(redis: Cluster): Promise<Map<string, [number, number][]>> {
  const rows = (await redis.cluster('SLOTS')) as unknown as [number, number, [string, number]][];
  const owners = new Map<string, [number, number][]>();
  for (const [from, to, [host, port]] of rows) owners.set(`${host}:${port}`, [...(owners.get(`${host}:${port}`) ?? []), [from, to]]);
  return owners;
}

export function ownerOf(owners: Map<string, [number, number][]>, slot: number): string {
  for (const [addr, ranges] of owners) if (ranges.some(([a, b]) => slot >= a && slot <= b)) return addr;
  throw new Error(`no master serves slot ${slot}`);
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** A JSON request to a mutating (or body-carrying) route. */
export function send(h: Handler, method: string, path: string, params: Record<string, string>, body?: unknown): Promise<{ status: number; body: JsonBody }> {
  return callRoute(h, path, params, { method, headers: JSON_HEADERS, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

/** A master's own view: it serves once it says cluster_state:ok (false while it is down). */
export async function masterServes(addr: string): Promise<boolean> {
  const conn = new Redis(Number(addr.split(':')[1]), '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await conn.connect();
    return ((await conn.call('CLUSTER', 'INFO')) as string).includes('cluster_state:ok');
  } catch {
    return false;
  } finally {
    conn.disconnect();
  }
}

/** The 503 every request gets while no node of the cluster `nodesEnv` answers. */
export function expectClusterUnreachable(res: { status: number; body: JsonBody }, nodesEnv: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(503);
  expect(res.body.error).toMatchObject({ code: 'redis_unavailable' });
  expect(res.body.error.message).toContain(`Redis at cluster ${nodesEnv} is unreachable`);
}
