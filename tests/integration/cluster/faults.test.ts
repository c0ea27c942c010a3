/**
 * Redis Cluster faults, on a private 3-master cluster (no replicas, AOF with fsync always so a
 * restarted master has its data back): one master SIGKILLed, the same master restarted on its
 * port and dir (its nodes.conf keeps its id and slots), a mutation whose reply is lost when its
 * master dies, and the whole cluster refusing once the others mark the dead master FAIL.
 *
 * Requests that touch the dead master answer 503 at once (never the cluster client's retry
 * loops), the queue list still shows the healthy masters' queues, the console recovers by
 * itself, and a mutation is never sent twice.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys as k } from '@/lib/asynq';
import { keySlot } from '@/lib/asynq/topology';
import { consoleRoutes, type ConsoleRoutes } from '../../support/console-routes';
import { startRedisCluster, type RunningCluster } from '../../support/redis-cluster';
import { get, post, report, sleep, timed, waitFor } from '../faults/helpers';
import { masterServes, ownerOf, queuesPerMaster, slotOwners } from './cluster-app';

let cluster: RunningCluster;
let admin: ReturnType<RunningCluster['client']>;
/** The master that is killed: not the one holding asynq:queues (without it nothing lists). */
let victim: number;
let victimAddr: string;
/** Queues served by the victim, and by the healthy masters. */
let down: string[];
let healthy: string[];
let r: ConsoleRoutes;
/** An answer that waited for a retry loop or the command timeout would take 200 ms or more. */
const FAST_MS = 150;

beforeAll(async () => {
  cluster = await startRedisCluster({ label: 'faults', args: ['--appendonly', 'yes', '--appendfsync', 'always'] });
  process.env.REDIS_URL = `redis://${cluster.nodes[0]}`;
  process.env.ASYNQLENS_REDIS_CLUSTER_NODES = cluster.nodesEnv;
  process.env.ASYNQLENS_COMMAND_TIMEOUT_MS = '3000';
  admin = cluster.client();
  // The test's own client sees the kills too; its reconnect errors are expected.
  admin.on('error', () => undefined);
  const owners = await slotOwners(admin);
  const registry = ownerOf(owners, keySlot(k.ALL_QUEUES));
  victim = cluster.nodes.findIndex((n) => n !== registry);
  victimAddr = cluster.nodes[victim]!;
  const byMaster = await queuesPerMaster(admin, 'fq', 2);
  down = byMaster.get(victimAddr)!;
  healthy = [...byMaster].filter(([addr]) => addr !== victimAddr).flatMap(([, qs]) => qs);
  r = await consoleRoutes();
  for (const q of [...down, ...healthy]) {
    const res = await post(r.tasks.POST, { qname: q }, { type: 't', options: { taskId: `seed-${q}` } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
}, 60_000);

afterAll(async () => {
  admin?.disconnect();
  await cluster?.stop();
});

const listTasks = (q: string) => get(r.tasks.GET, { qname: q }, `/api/queues/${q}/tasks?state=pending`);
const taskDetail = (q: string) => get(r.task.GET, { qname: q, taskId: `seed-${q}` }, `/api/queues/${q}/tasks/seed-${q}`);
const enqueue = (q: string) => post(r.tasks.POST, { qname: q }, { type: 'no-id' });

async function restartVictim(what: string): Promise<void> {
  const started = performance.now();
  await cluster.restart(victim);
  await waitFor('the restarted master to serve', () => masterServes(victimAddr), 15_000, 50);
  report(`${what}: restarted master serves (cluster_state:ok) after`, Math.round(performance.now() - started));
}

/** Pending task IDs in queue `q`, read straight from the victim's data. */
const pendingIds = (q: string) => admin.lrange(k.pendingKey(q), 0, -1);

describe('one master killed (no replica)', () => {
  it('requests on its queues answer 503 at once naming the cluster; the queue list shows the other queues and a problem row per unreachable queue', async () => {
    expect((await get(r.queues.GET)).status).toBe(200);
    await cluster.kill(victim);
    const killedAt = performance.now();

    const list = await timed(() => get(r.queues.GET));
    report('queue list right after the kill → 200 with problem rows', list.ms);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.ms).toBeLessThan(FAST_MS);
    const rows = new Map<string, { pending: number; problem: string | null }>(list.body.queues.map((q: { queue: string }) => [q.queue, q]));
    for (const q of healthy) expect([q, rows.get(q)]).toMatchObject([q, { pending: 1, problem: null }]);
    for (const q of down) expect(rows.get(q)?.problem).toMatch(new RegExp(`^node ${victimAddr} unreachable`));

    // The healthy masters forget their scripts: their next reads meet NOSCRIPT and load them,
    // which must not involve the dead master.
    for (const addr of cluster.nodes.filter((a) => a !== victimAddr)) {
      const conn = new Redis(Number(addr.split(':')[1]), '127.0.0.1', { maxRetriesPerRequest: 0 });
      await conn.script('FLUSH');
      conn.disconnect();
    }
    const reads = [
      ['task list', () => listTasks(down[0]!)],
      ['task detail', () => taskDetail(down[0]!)],
    ] as const;
    for (let round = 0; round < 3; round++) {
      for (const [what, call] of reads) {
        const res = await timed(call);
        if (round === 0) report(`${what} on the dead master → ${res.status}`, res.ms);
        expect(res.status, JSON.stringify(res.body)).toBe(503);
        expect(res.body.error).toMatchObject({ code: 'redis_unavailable', reason: 'unreachable' });
        expect(res.body.error.message).toContain(`Redis at cluster ${cluster.nodesEnv} is unreachable`);
        expect(res.ms).toBeLessThan(FAST_MS);
      }
      // The other masters' queues are untouched by it, scripts reloaded included. (The pause
      // lets the client's slot-map refresh put a connection to the dead master back in its pool.)
      await sleep(50);
      const other = await listTasks(healthy[0]!);
      expect(other.status, JSON.stringify(other.body)).toBe(200);
      await sleep(300);
    }
    const change = await timed(() => enqueue(down[1]!));
    report(`enqueue on the dead master → ${change.status} (${change.body.error?.outcome ?? 'nothing changed'})`, change.ms);
    expect(change.status).toBe(503);
    expect(change.body.error.message).toContain(`Redis at cluster ${cluster.nodesEnv}`);
    expect(change.ms).toBeLessThan(FAST_MS);
    // Well inside cluster-node-timeout (5 s): the others have not marked it FAIL yet.
    expect(performance.now() - killedAt).toBeLessThan(4000);
  });

  it('restarted on its port and dir: the console recovers by itself, the first or second request succeeds', async () => {
    const started = performance.now();
    await restartVictim('restart');
    const outcomes: number[] = [];
    let ok = false;
    for (let i = 0; i < 2 && !ok; i++) {
      const res = await timed(() => listTasks(down[0]!));
      outcomes.push(res.status);
      report(`request ${i + 1} after the restart → ${res.status}${res.status === 200 ? '' : ` ${res.body.error?.message}`}`, res.ms);
      ok = res.status === 200;
      if (ok) expect(res.body.tasks.map((t: { id: string }) => t.id)).toEqual([`seed-${down[0]}`]);
    }
    expect(outcomes, 'first or second request after the restart').toContain(200);
    report('kill-free recovery: restart → first success', Math.round(performance.now() - started));
    const list = await get(r.queues.GET);
    expect(list.body.queues.every((q: { problem: string | null }) => q.problem === null)).toBe(true);
    expect((await taskDetail(down[0]!)).status).toBe(200);
  });
});

describe('a mutation whose master dies after receiving it', () => {
  it('held by the master (CLIENT PAUSE WRITE) and lost with it: 503 outcome unknown, never resent after the restart', async () => {
    const q = down[1]!;
    const before = await pendingIds(q);
    const node = new Redis(Number(victimAddr.split(':')[1]), '127.0.0.1', { maxRetriesPerRequest: 0 });
    await node.call('CLIENT', 'PAUSE', '10000', 'WRITE');
    const inFlight = timed(() => enqueue(q));
    // The master has the enqueue script and holds it: the console's connection is blocked.
    await waitFor('the master to hold the enqueue', async () => /name=asynqlens .*flags=\S*b/.test((await node.call('CLIENT', 'LIST')) as string), 3000, 5);
    node.disconnect();
    const killedAt = performance.now();
    await cluster.kill(victim);
    const res = await inFlight;
    report('enqueue held, master killed → 503 after the kill', Math.round(performance.now() - killedAt));
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ code: 'redis_unavailable', reason: 'unreachable', outcome: 'unknown' });
    expect(res.body.error.message).toContain(`Redis at cluster ${cluster.nodesEnv} is unreachable: connection to Redis lost before it replied`);
    expect(performance.now() - killedAt).toBeLessThan(FAST_MS);

    await restartVictim('after the lost reply');
    // A resend would land now that the master is back: give it the time ioredis' retries take.
    await sleep(1000);
    expect((await listTasks(q)).status).toBe(200);
    expect(await pendingIds(q)).toEqual(before);
  });

  it('killed the moment it receives the enqueue (no ID): at most one task, never two', async () => {
    const q = down[1]!;
    const before = (await pendingIds(q)).length;
    const conn = new Redis(Number(victimAddr.split(':')[1]), '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0 });
    const monitor = await conn.monitor();
    conn.disconnect();
    monitor.on('error', () => undefined);
    let killed: Promise<void> | undefined;
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (/^EVAL/i.test(args[0] ?? '')) killed ??= cluster.kill(victim);
    });
    const res = await enqueue(q);
    await waitFor('the kill', () => killed !== undefined, 2000, 5);
    await killed;
    monitor.disconnect();
    report(`enqueue, master killed on receipt → ${res.status}${res.status === 201 ? '' : ` (${res.body.error?.outcome ?? 'nothing changed'})`}`);
    // 503 without an outcome when the master was gone before the script was written (a first
    // EVALSHA that met NOSCRIPT on the restarted master, then the kill).
    if (res.status === 201) expect(res.body.id).toBeTruthy();
    else expect(res.body.error.code).toBe('redis_unavailable');
    const maybeApplied = res.status === 201 || res.body.error?.outcome === 'unknown';

    await restartVictim('after the kill on receipt');
    await sleep(1000);
    const after = (await pendingIds(q)).length - before;
    report(`tasks the enqueue made: ${after}`);
    expect(after).toBeLessThanOrEqual(maybeApplied ? 1 : 0);
    if (res.status === 201) expect(after).toBe(1);
  });
});

describe('the whole cluster refuses once the dead master is marked FAIL', () => {
  it('every request answers 503 "refused" (CLUSTERDOWN) at once, and the console recovers by itself when the master is back', async () => {
    await cluster.kill(victim);
    const other = new Redis(Number(cluster.nodes[(victim + 1) % 3]!.split(':')[1]), '127.0.0.1', { maxRetriesPerRequest: 0 });
    const failAfter = await waitFor(
      'the healthy masters to mark the cluster down',
      async () => ((await other.call('CLUSTER', 'INFO')) as string).includes('cluster_state:fail'),
      15_000,
      100,
    );
    report('kill → cluster_state:fail on the healthy masters (cluster-node-timeout 5 s)', failAfter);
    for (const call of [() => get(r.queues.GET), () => listTasks(healthy[0]!)]) {
      const res = await timed(call);
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(res.body.error).toMatchObject({ code: 'redis_unavailable', reason: 'refused' });
      expect(res.body.error.message).toContain(`Redis at cluster ${cluster.nodesEnv} is refusing the console: CLUSTERDOWN`);
      expect(res.ms).toBeLessThan(FAST_MS);
    }
    report('a request during CLUSTERDOWN → 503 refused', (await timed(() => get(r.queues.GET))).ms);
    await cluster.restart(victim);
    // Redis clears a slot-owning master's FAIL flag only 2 × cluster-node-timeout after it was set.
    const back = await waitFor('every master to serve again', async () => (await Promise.all(cluster.nodes.map(masterServes))).every(Boolean), 20_000, 100);
    report('restart → cluster_state:ok everywhere', back);
    other.disconnect();
    const first = await timed(() => get(r.queues.GET));
    report(`first request once the cluster is ok → ${first.status}`, first.ms);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.queues.every((q: { problem: string | null }) => q.problem === null)).toBe(true);
  }, 40_000);
});
