/**
 * A managed Redis Cluster: three masters served only over TLS (mutual TLS, cluster bus too), and
 * an ACL user limited to asynq's keys without admin commands. The console, configured as an
 * operator would (rediss:// URL with the user, the seed nodes, the TLS files), reads and writes
 * queues on every master and shows the Redis page; a wrong password, a missing client
 * certificate or an untrusted node answers a 503 naming the cluster at once, instead of hanging,
 * and then names the reason. Last, the nodes announce hostnames, as managed clusters do, and
 * the console reaches them by name with each certificate checked against it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis, type Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys as k } from '@/lib/asynq';
import { callRoute } from '../../support/call-route';
import { freshConsole } from '../../support/fresh-console';
import { startRedisCluster, type RunningCluster } from '../../support/redis-cluster';
import { report, timed, waitFor } from '../faults/helpers';
import { expectClusterUnreachable, queuesPerMaster, send } from './cluster-app';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'tls');
const PASSWORD = 's3cret pass:/@';
/** Well under the 2 s command timeout the routes get (see freshConsole). */
const FAST_MS = 1000;
const mutualTls = {
  ASYNQLENS_REDIS_TLS_CA_FILE: join(fixtures, 'ca.crt'),
  ASYNQLENS_REDIS_TLS_CERT_FILE: join(fixtures, 'client.crt'),
  ASYNQLENS_REDIS_TLS_KEY_FILE: join(fixtures, 'client.key'),
};

let cluster: RunningCluster;
/** Test-side client as the default user, over the same TLS, for seeding and checking. */
let redis: Cluster;
/** One queue on each master, in slot order. */
let qs: string[];

beforeAll(async () => {
  cluster = await startRedisCluster({
    label: 'tls-acl',
    tls: {
      certFile: join(fixtures, 'server.crt'),
      keyFile: join(fixtures, 'server.key'),
      caFile: join(fixtures, 'ca.crt'),
      clientCertFile: join(fixtures, 'client.crt'),
      clientKeyFile: join(fixtures, 'client.key'),
    },
    // What a locked-down managed cluster gives an application: its keys, no admin commands.
    args: ['--user', 'app', 'on', `>${PASSWORD}`, '~asynq:*', '~asynqlens:*', '&*', '+@all', '-@admin'],
  });
  redis = cluster.client();
  qs = [...(await queuesPerMaster(redis, 'tls', 1)).values()].flat();
}, 30_000);

afterAll(async () => {
  await redis?.quit();
  await cluster?.stop();
});

/** What an operator sets: the ACL user in a rediss:// URL (percent-encoded), the seeds, the TLS files. */
const settings = (password = PASSWORD, tls: Record<string, string> = mutualTls) => ({
  REDIS_URL: `rediss://app:${encodeURIComponent(password)}@${cluster.nodes[0]}`,
  ASYNQLENS_REDIS_CLUSTER_NODES: cluster.nodesEnv,
  ...tls,
});

/** A connection to master `addr` as the ACL user, over TLS, with the client certificate. */
function asApp(addr: string): Redis {
  const [host, port] = addr.split(':');
  return new Redis(Number(port), host!, {
    username: 'app',
    password: PASSWORD,
    maxRetriesPerRequest: 0,
    tls: { ca: readFileSync(mutualTls.ASYNQLENS_REDIS_TLS_CA_FILE), cert: readFileSync(mutualTls.ASYNQLENS_REDIS_TLS_CERT_FILE), key: readFileSync(mutualTls.ASYNQLENS_REDIS_TLS_KEY_FILE) },
  });
}

/** `fn` on a connection to each master as the default user, in slot order. */
async function onMasters<T>(fn: (m: Redis) => Promise<T>): Promise<T[]> {
  const masters = cluster.masters();
  try {
    return await Promise.all(masters.map(fn));
  } finally {
    for (const m of masters) m.disconnect();
  }
}

describe('a Redis Cluster over mutual TLS with an ACL user', () => {
  it('enqueues, lists, shows and bulk-archives tasks in queues on every master', async () => {
    await onMasters((m) => m.call('ACL', 'LOG', 'RESET'));
    const r = await freshConsole(settings());
    const ids = new Map<string, string[]>();
    for (const [i, q] of qs.entries()) {
      // A different count per queue, so a count read from the wrong master or queue shows.
      for (let n = 0; n < i + 2; n++) {
        const res = await send(r.tasks.POST, 'POST', `/api/queues/${q}/tasks`, { qname: q }, { type: 'report:build', payload: `{"q":"${q}","n":${n}}` });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(res.body).toMatchObject({ queue: q, state: 'pending' });
        ids.set(q, [...(ids.get(q) ?? []), res.body.id]);
      }
      expect((await redis.lrange(k.pendingKey(q), 0, -1)).sort()).toEqual([...ids.get(q)!].sort());
      expect(await redis.sismember(k.ALL_QUEUES, q)).toBe(1);
    }

    const list = await callRoute(r.queues.GET, '/api/queues');
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const rows = list.body.queues as { queue: string; size: number; pending: number; problem: string | null }[];
    expect(rows.map(({ queue, size, pending, problem }) => ({ queue, size, pending, problem })).sort((a, b) => a.queue.localeCompare(b.queue))).toEqual(
      qs.map((q, i) => ({ queue: q, size: i + 2, pending: i + 2, problem: null })).sort((a, b) => a.queue.localeCompare(b.queue)),
    );

    for (const q of qs) {
      const tasks = await callRoute(r.tasks.GET, `/api/queues/${q}/tasks?state=pending`, { qname: q });
      expect(tasks.status, JSON.stringify(tasks.body)).toBe(200);
      expect(tasks.body.tasks.map((t: { id: string }) => t.id).sort()).toEqual([...ids.get(q)!].sort());
      const id = ids.get(q)![0]!;
      const task = await callRoute(r.task.GET, `/api/queues/${q}/tasks/${id}`, { qname: q, taskId: id });
      expect(task.status, JSON.stringify(task.body)).toBe(200);
      expect(task.body).toMatchObject({ id, queue: q, type: 'report:build', state: 'pending', payload: `{"q":"${q}","n":0}` });
    }

    for (const [i, q] of qs.entries()) {
      const bulk = await send(r.bulk.POST, 'POST', `/api/queues/${q}/bulk`, { qname: q }, { action: 'archive', state: 'pending' });
      expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
      expect(bulk.body).toMatchObject({ succeeded: i + 2, failed: [] });
      expect(await redis.llen(k.pendingKey(q))).toBe(0);
      expect((await redis.zrange(k.archivedKey(q), 0, -1)).sort()).toEqual([...ids.get(q)!].sort());
    }

    // The console reached every master as the ACL user, and over TLS: no master has a plain port.
    for (const clients of await onMasters((m) => m.call('CLIENT', 'LIST'))) expect(clients).toMatch(/name=asynqlens .*user=app /);
    expect(await onMasters((m) => m.call('CONFIG', 'GET', 'port'))).toEqual([['port', '0'], ['port', '0'], ['port', '0']]);
    // Nothing was refused to the user along the way (a refusal the console worked around included).
    expect(await onMasters((m) => m.call('ACL', 'LOG'))).toEqual([[], [], []]);
  });

  it('shows the Redis page from INFO of every master, which the ACL user may run without admin commands', async () => {
    await redis.set('asynq:{tls-page}:marker', '1');
    await onMasters((m) => m.call('ACL', 'LOG', 'RESET'));
    const r = await freshConsole(settings());
    const { status, body } = await callRoute(r.redis.GET, '/api/redis');
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.info.server.redis_mode).toBe('cluster');
    expect(Object.keys(body.info['cluster nodes']).sort()).toEqual([...cluster.nodes].sort());
    const ranges = Object.values(body.info['cluster nodes'] as Record<string, string>).map((line) => /slots=(\S+)/.exec(line)?.[1]);
    expect(ranges.sort()).toEqual(['0-5460', '10922-16383', '5461-10921']);
    const keys = (await onMasters((m) => m.dbsize())).reduce((a, b) => a + b, 0);
    expect(body.info.keyspace.db0).toMatch(new RegExp(`^keys=${keys},`));
    // Nothing the page sent was refused: each master logs every command it refuses in ACL LOG
    // (the end of this case shows it does).
    expect(await onMasters((m) => m.call('ACL', 'LOG'))).toEqual([[], [], []]);

    // The user really lacks admin commands (INFO is @dangerous, not @admin), and the log sees refusals.
    const app = asApp(cluster.nodes[0]!);
    try {
      await expect(app.call('CONFIG', 'GET', 'maxmemory')).rejects.toThrow(/NOPERM/);
    } finally {
      app.disconnect();
    }
    expect((await onMasters((m) => m.call('ACL', 'LOG') as Promise<unknown[]>)).map((log) => log.length)).toEqual([1, 0, 0]);
  });

  it.each([
    ['a wrong password', () => settings('nope'), /WRONGPASS/],
    // Under TLS 1.3 the node refuses a missing certificate only after the client's handshake is
    // done: its "certificate required" alert races the probe's first write (AUTH), and when the
    // write loses, the probe sees a reset; a bare handshake that writes nothing then gets the alert.
    ['no client certificate', () => settings(PASSWORD, { ASYNQLENS_REDIS_TLS_CA_FILE: mutualTls.ASYNQLENS_REDIS_TLS_CA_FILE }), /certificate required/],
    [
      'nodes whose CA it does not trust',
      () => settings(PASSWORD, { ASYNQLENS_REDIS_TLS_CERT_FILE: mutualTls.ASYNQLENS_REDIS_TLS_CERT_FILE, ASYNQLENS_REDIS_TLS_KEY_FILE: mutualTls.ASYNQLENS_REDIS_TLS_KEY_FILE }),
      /self-signed certificate|unable to (verify|get local issuer)/,
    ],
  ])('answers 503 naming the cluster at once, then the reason, with %s', async (what, env, reason) => {
    const r = await freshConsole(env());
    const list = () => timed(() => callRoute(r.queues.GET, '/api/queues'));
    // The first request makes the connection; the next meets the client between attempts.
    const first = await list();
    for (const res of [first, await list()]) {
      expectClusterUnreachable(res, cluster.nodesEnv);
      expect(res.ms).toBeLessThan(FAST_MS);
    }
    // ioredis discards the node's error; the console's own probe of the seeds finds it.
    const named = `no node of the cluster answered (${cluster.nodes[0]}: `;
    const after = await waitFor('the reason in the message', async () => (await list()).body.error.message.includes(named), 5000);
    const res = await list();
    expectClusterUnreachable(res, cluster.nodesEnv);
    expect(res.body.error.message).toContain(named);
    for (const node of cluster.nodes) expect(res.body.error.message).toMatch(new RegExp(`${node.replaceAll('.', '\\.')}: [^;]*(?:${reason.source})`));
    expect(res.ms).toBeLessThan(FAST_MS);
    report(`cluster over TLS, ${what}: first 503 in ${first.ms} ms, the reason named after`, after);
  });
});

// Last, because it changes how the shared cluster announces its nodes.
describe('a managed cluster that names its nodes by hostname', () => {
  it('is reached by name, each node verified against the name it announces, and a wrong server name is named', async () => {
    // What managed clusters with in-transit encryption do: CLUSTER SLOTS answers hostnames that
    // the certificates carry, and the seeds are names too.
    await onMasters(async (m) => {
      await m.call('CONFIG', 'SET', 'cluster-announce-hostname', 'localhost');
      return m.call('CONFIG', 'SET', 'cluster-preferred-endpoint-type', 'hostname');
    });
    await waitFor('every master to announce every master by name', async () =>
      (await onMasters(async (m) => JSON.stringify(await m.call('CLUSTER', 'SLOTS')))).every((slots) => slots.match(/"localhost"/g)?.length === 3), 8000);
    const byName = cluster.nodes.map((n) => n.replace('127.0.0.1', 'localhost'));
    const named = { REDIS_URL: `rediss://app:${encodeURIComponent(PASSWORD)}@${byName[0]}`, ASYNQLENS_REDIS_CLUSTER_NODES: byName.join(','), ...mutualTls };

    const r = await freshConsole(named);
    for (const q of qs) {
      const res = await send(r.tasks.POST, 'POST', `/api/queues/${q}/tasks`, { qname: q }, { type: 'by:name' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(await redis.lindex(k.pendingKey(q), 0)).toBe(res.body.id);
    }
    const page = await callRoute(r.redis.GET, '/api/redis');
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(Object.keys(page.body.info['cluster nodes']).sort()).toEqual([...byName].sort());

    const wrong = await freshConsole({ ...named, ASYNQLENS_REDIS_TLS_SERVERNAME: 'other.test' });
    const list = () => callRoute(wrong.queues.GET, '/api/queues');
    expectClusterUnreachable(await list(), byName.join(','));
    await waitFor('the name mismatch in the message', async () => /other\.test\. is not in the cert's altnames/.test((await list()).body.error.message), 5000);
  });
});
