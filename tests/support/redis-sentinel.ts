/**
 * A Sentinel deployment on loopback for tests: a master, one replica and one sentinel
 * (quorum 1), each its own redis-server process with a private dir. Failover is fast
 * (down-after 1 s) so a test can kill the master and watch the replica take over.
 *
 * With `tls`, the deployment is served only over TLS, as a managed one is: master, replica and
 * sentinel each listen on a TLS port and require a client certificate, the replica replicates
 * over TLS and the sentinel monitors the data nodes over TLS (`tls-replication yes`), so every
 * address the sentinel names is a TLS port. A data node still starts with a plain port, because
 * scripts/support/redis-server.ts knows it is up by a plain PING; that listener is closed
 * (CONFIG SET port 0) right after, and the node is stopped with SIGKILL (a plain SHUTDOWN has no
 * port left to reach). The sentinel never opens a plain port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConnectionOptions } from 'node:tls';
import { Redis, type RedisOptions } from 'ioredis';
import { freePort } from '../e2e/support/app-server';
import { startRedisServer, type RunningRedis } from '../../scripts/support/redis-server';

export const MASTER_NAME = 'asynqlens-test';

/** PEM files for a deployment served only over TLS (see the module comment). */
export interface SentinelTls {
  /** Every server's certificate and key: what it serves, and shows as a client to its peers. */
  certFile: string;
  keyFile: string;
  /** The CA every server trusts for clients and peers, and our own connections trust for servers. */
  caFile: string;
}

export interface SentinelOptions {
  tls?: SentinelTls;
  /**
   * Extra redis-server arguments for the master and the replica alike (e.g. an ACL `--user`:
   * ACLs are not replicated, and a promoted replica must accept the same clients).
   */
  args?: string[];
}

export interface SentinelSetup {
  master: RunningRedis;
  replica: RunningRedis;
  sentinelPort: number;
  /** A client of the sentinel itself (SENTINEL … commands). */
  sentinel: Redis;
  /** host:port the sentinel currently names as master. */
  masterAddress(): Promise<string>;
  /** host:port clients use for `server`: its TLS port with `tls`, else its plain port. */
  addressOf(server: RunningRedis): string;
  /** A new connection to the data node at `address` (TLS, showing the certificate, with `tls`); the caller disconnects it. */
  connectTo(address: string, options?: RedisOptions): Redis;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => null);
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`sentinel setup: timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** What our own connections show and trust with `tls`; the servers' names are checked. */
function clientTls(tls: SentinelTls): ConnectionOptions {
  return { ca: readFileSync(tls.caFile), cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) };
}

/** The TLS settings every server of the deployment shares, as `name value` pairs. */
const tlsSettings = (tls: SentinelTls, tlsPort: number): [string, string][] => [
  ['tls-port', String(tlsPort)],
  ['tls-cert-file', tls.certFile],
  ['tls-key-file', tls.keyFile],
  ['tls-ca-cert-file', tls.caFile],
  ['tls-auth-clients', 'yes'],
  ['tls-replication', 'yes'],
];

interface DataNode {
  server: RunningRedis;
  /** The port clients use: the TLS port with `tls`, else the plain one. */
  port: number;
}

/** Starts one data node; with `tls`, leaves it listening on its TLS port only (see the module comment). */
async function startDataNode(label: string, args: string[], tls?: { files: SentinelTls; client: ConnectionOptions }): Promise<DataNode> {
  if (!tls) {
    const server = await startRedisServer({ label, args });
    return { server, port: server.port };
  }
  const tlsPort = await freePort();
  const server = await startRedisServer({ label, args: [...args, ...tlsSettings(tls.files, tlsPort).flatMap(([k, v]) => [`--${k}`, v])] });
  const conn = new Redis(tlsPort, server.host, { tls: tls.client, lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await conn.connect();
    await conn.call('CONFIG', 'SET', 'port', '0');
  } catch (err) {
    await server.kill();
    throw err;
  } finally {
    conn.disconnect();
  }
  return { server, port: tlsPort };
}

export async function startSentinelSetup(opts: SentinelOptions = {}): Promise<SentinelSetup> {
  const tls = opts.tls ? { files: opts.tls, client: clientTls(opts.tls) } : undefined;
  const connOpts = tls ? { tls: tls.client } : {};
  const args = opts.args ?? [];
  const master = await startDataNode('sentinel-master', args, tls);
  const replica = await startDataNode('sentinel-replica', [...args, '--replicaof', '127.0.0.1', String(master.port)], tls);
  const nodes = [master, replica];
  const dir = mkdtempSync(join(tmpdir(), 'asynqlens-sentinel-'));
  const sentinelPort = await freePort();
  const conf = join(dir, 'sentinel.conf');
  writeFileSync(
    conf,
    [
      ...(tls ? ['port 0', ...tlsSettings(tls.files, sentinelPort).map(([k, v]) => `${k} ${v}`)] : [`port ${sentinelPort}`]),
      'bind 127.0.0.1',
      `dir ${dir}`,
      `logfile ${join(dir, 'sentinel.log')}`,
      `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${master.port} 1`,
      `sentinel down-after-milliseconds ${MASTER_NAME} 1000`,
      // A second failover of the same master may start 2 × this after the first: keep it short.
      `sentinel failover-timeout ${MASTER_NAME} 3000`,
      `sentinel parallel-syncs ${MASTER_NAME} 1`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(process.env.REDIS_SERVER_BIN ?? 'redis-server', [conf, '--sentinel'], { stdio: 'ignore' });
  const killChild = () => child.kill('SIGKILL');
  process.once('exit', killChild);
  const sentinel = new Redis({ host: '127.0.0.1', port: sentinelPort, lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 100, ...connOpts });
  sentinel.on('error', () => {});
  const masterAddress = async () => {
    const [host, port] = (await sentinel.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER_NAME)) as [string, string];
    return `${host}:${port}`;
  };
  const addressOf = (server: RunningRedis) => `127.0.0.1:${nodes.find((n) => n.server === server)?.port ?? server.port}`;
  const connectTo = (address: string, options: RedisOptions = {}) => {
    const [host, port] = address.split(':');
    const client = new Redis({ host, port: Number(port), maxRetriesPerRequest: 1, ...connOpts, ...options });
    client.on('error', () => {});
    return client;
  };
  // A TLS node has no plain port for SHUTDOWN (see the module comment); its data is throwaway.
  const halt = (n: DataNode) => (tls ? n.server.kill() : n.server.stop());
  const stop = async () => {
    sentinel.disconnect();
    killChild();
    process.removeListener('exit', killChild);
    await Promise.all(nodes.map(halt));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Ready once the replica is in sync and the sentinel knows it (it learns replicas from the
    // master's INFO), so a failover has somewhere to go.
    const replicaClient = connectTo(addressOf(replica.server), { lazyConnect: true });
    try {
      await waitFor('the replica to sync', async () => ((await replicaClient.info('replication')).includes('master_link_status:up') ? true : null));
    } finally {
      replicaClient.disconnect();
    }
    await waitFor('the sentinel to know the replica', async () => {
      const replicas = (await sentinel.call('SENTINEL', 'REPLICAS', MASTER_NAME)) as string[][];
      return replicas.some((r) => r.includes(String(replica.port)) && !r.join(' ').includes('s_down')) ? true : null;
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { master: master.server, replica: replica.server, sentinelPort, sentinel, masterAddress, addressOf, connectTo, stop };
}

/** Waits until the sentinel names `address` as the master and that server says it is one. */
export async function waitForMaster(setup: SentinelSetup, address: string, timeoutMs = 30_000): Promise<void> {
  await waitFor(`${address} to become master`, async () => ((await setup.masterAddress()) === address ? true : null), timeoutMs);
  const probe = setup.connectTo(address, { lazyConnect: true });
  try {
    await waitFor(`${address} to report role master`, async () => ((await probe.info('replication')).includes('role:master') ? true : null), timeoutMs);
  } finally {
    probe.disconnect();
  }
}

/** Waits until `replica` replicates from `master` with its link up (the sentinel reconfigures an old master after a failover). */
export async function waitForReplicaOf(setup: SentinelSetup, replica: RunningRedis, master: RunningRedis, timeoutMs = 30_000): Promise<void> {
  const replicaAddress = setup.addressOf(replica);
  const masterPort = setup.addressOf(master).split(':')[1];
  const probe = setup.connectTo(replicaAddress, { lazyConnect: true });
  try {
    await waitFor(`${replicaAddress} to replicate from ${masterPort}`, async () => {
      const info = await probe.info('replication');
      return info.includes(`master_port:${masterPort}`) && info.includes('master_link_status:up') ? true : null;
    }, timeoutMs);
  } finally {
    probe.disconnect();
  }
}
