/**
 * A private three-master Redis Cluster for the cluster suites: three redis-server processes
 * (each started by scripts/support/redis-server.ts, so each is detached, parent-death-signalled,
 * in a temp dir of its own, without persistence, and killed when this process exits), with the 16384
 * slots split evenly, joined with CLUSTER MEET, and ready once every node reports
 * `cluster_state:ok` and all of them agree on the slot map. No replicas: the suites test where
 * keys live, not failover. Start-up takes well under a second.
 *
 * With `tls`, the cluster is served only over TLS, as a managed one is: each node listens on a
 * TLS port (the addresses in `nodes`), its cluster bus speaks TLS too (`--tls-cluster yes`), and
 * every connection made here (set-up, client(), masters()) uses TLS. A node still starts with a
 * plain port, because scripts/support/redis-server.ts knows it is up by a plain PING; that
 * listener is closed (CONFIG SET port 0) before the node joins, and after each restart. A TLS
 * node is stopped with SIGKILL: the graceful path, a plain SHUTDOWN, has no port left to reach.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConnectionOptions } from 'node:tls';
import { Cluster, Redis } from 'ioredis';
import { startRedisServer, type RunningRedis } from '../../scripts/support/redis-server';

/** PEM files for a cluster served over TLS (see the module comment). */
export interface ClusterTls {
  /** Each node's certificate and key: what it serves, and shows its peers on the TLS cluster bus. */
  certFile: string;
  keyFile: string;
  /** The CA nodes trust for peers and clients, and our connections trust for nodes. */
  caFile: string;
  /** `--tls-auth-clients`: whether a client must show a certificate (default `yes`, mutual TLS). */
  authClients?: 'yes' | 'no' | 'optional';
  /** The certificate and key our own connections show (default: certFile and keyFile). */
  clientCertFile?: string;
  clientKeyFile?: string;
}

export interface RunningCluster {
  /** Each master's `host:port` (its TLS port with `tls`), in slot order (the first serves slots 0–5460). */
  nodes: string[];
  /** The same, comma-separated: the value of ASYNQLENS_REDIS_CLUSTER_NODES. */
  nodesEnv: string;
  /** A new ioredis Cluster client on these nodes, as the default user (binary-safe; the caller quits it). */
  client(): Cluster;
  /** One connection per master as the default user, in slot order (the caller quits them). */
  masters(): Redis[];
  /**
   * SIGKILLs master `i` (a crash: no shutdown, clients see a reset). Its dir and nodes.conf stay,
   * so {@link RunningCluster.restart} brings back the same node: same id, slots and epoch.
   */
  kill(i: number): Promise<void>;
  /** Starts master `i` again on its port and dir; resolves once it answers PING (not once the cluster agrees). */
  restart(i: number): Promise<void>;
  /** Stops every node and removes its files. Safe to call more than once. */
  stop(): Promise<void>;
}

const SLOTS = 16384;
const READY_TIMEOUT_MS = 10_000;

/** A free loopback port for a node's cluster bus (the default, port + 10000, may not exist). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const a = probe.address();
      probe.close(() => resolve(typeof a === 'object' && a !== null ? a.port : 0));
    });
  });
}

/** The slot ranges of `masters` nodes: as even as 16384 divides. */
function slotRanges(masters: number): [number, number][] {
  return Array.from({ length: masters }, (_, i) => [Math.floor((i * SLOTS) / masters), Math.floor(((i + 1) * SLOTS) / masters) - 1]);
}

interface Node {
  server: RunningRedis;
  busPort: number;
  /** The port clients use with `tls`; otherwise the server's plain port. */
  tlsPort?: number;
  /** Ours, not the server's: a killed node keeps its nodes.conf here for a restart. */
  dir: string;
  label: string;
  extra: string[];
}

const nodeArgs = (busPort: number) => ['--cluster-enabled', 'yes', '--cluster-port', String(busPort), '--cluster-node-timeout', '5000', '--appendonly', 'no', '--save', ''];

const tlsArgs = (tls: ClusterTls, tlsPort: number) => [
  '--tls-port', String(tlsPort),
  '--tls-cluster', 'yes',
  '--tls-cert-file', tls.certFile,
  '--tls-key-file', tls.keyFile,
  '--tls-ca-cert-file', tls.caFile,
  '--tls-auth-clients', tls.authClients ?? 'yes',
];

/** What our connections to a TLS node use; certificates are checked (the node's names must fit). */
function clientTls(tls: ClusterTls): ConnectionOptions {
  return {
    ca: readFileSync(tls.caFile),
    cert: readFileSync(tls.clientCertFile ?? tls.certFile),
    key: readFileSync(tls.clientKeyFile ?? tls.keyFile),
  };
}

const clientPort = (n: Node) => n.tlsPort ?? n.server.port;

/** Leaves a TLS node with only its TLS listener (see the module comment). */
async function closePlainPort(n: Node, tls: ConnectionOptions): Promise<void> {
  const conn = new Redis(clientPort(n), n.server.host, { tls, maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await conn.connect();
    await conn.call('CONFIG', 'SET', 'port', '0');
  } finally {
    conn.disconnect();
  }
}

async function startNode(label: string, extra: string[], tls?: ClusterTls): Promise<Node> {
  const busPort = await freePort();
  const tlsPort = tls ? await freePort() : undefined;
  const dir = await mkdtemp(join(tmpdir(), `asynqlens-redis-${label.replace(/[^\w.-]/g, '_')}-`));
  const args = tls && tlsPort ? [...extra, ...tlsArgs(tls, tlsPort)] : extra;
  let server: RunningRedis | undefined;
  try {
    server = await startRedisServer({ label, dir, args: [...nodeArgs(busPort), ...args] });
    const node: Node = { server, busPort, tlsPort, dir, label, extra: args };
    if (tls) await closePlainPort(node, clientTls(tls));
    return node;
  } catch (err) {
    await server?.kill();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** One line per slot range: `start-end owner:port`, sorted, for comparing nodes' views. */
async function slotMap(conn: Redis): Promise<string> {
  const rows = (await conn.call('CLUSTER', 'SLOTS')) as [number, number, [string, number, string]][];
  return rows.map(([from, to, [host, port]]) => `${from}-${to} ${host}:${port}`).sort().join('\n');
}

async function waitForAgreement(conns: Redis[]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    const states = await Promise.all(conns.map((c) => c.call('CLUSTER', 'INFO') as Promise<string>));
    const maps = await Promise.all(conns.map(slotMap));
    const ok = states.every((s) => s.includes('cluster_state:ok'));
    if (ok && maps.every((m) => m === maps[0]) && (maps[0] ?? '').split('\n').length === conns.length) return;
    last = `states: ${states.map((s) => /cluster_state:(\w+)/.exec(s)?.[1]).join(',')}; maps: ${JSON.stringify(maps)}`;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Redis Cluster did not converge within ${READY_TIMEOUT_MS / 1000} s (${last})`);
}

/**
 * Starts the cluster; see the module comment. `args` are extra redis-server arguments for every
 * node (e.g. `--appendonly yes` for a suite that restarts a node and needs its data back, or an
 * ACL `--user`); `tls` serves it only over TLS.
 */
export async function startRedisCluster(opts: { masters?: number; label?: string; args?: string[]; tls?: ClusterTls } = {}): Promise<RunningCluster> {
  const masters = opts.masters ?? 3;
  const label = opts.label ?? 'cluster';
  const tls = opts.tls ? clientTls(opts.tls) : undefined;
  const connOpts = tls ? { tls } : {};
  const started = await Promise.all(Array.from({ length: masters }, (_, i) => startNode(`${label}-${i}`, opts.args ?? [], opts.tls)));
  // A TLS node has no plain port for SHUTDOWN (see the module comment); its data is throwaway.
  const halt = (n: Node) => (n.tlsPort === undefined ? n.server.stop() : n.server.kill());
  const stop = async () => {
    await Promise.all(started.map(halt));
    await Promise.all(started.map((n) => rm(n.dir, { recursive: true, force: true })));
  };
  const conns = started.map((n) => new Redis(clientPort(n), n.server.host, { maxRetriesPerRequest: 1, lazyConnect: false, ...connOpts }));
  try {
    const ranges = slotRanges(masters);
    // Distinct config epochs up front: otherwise the nodes first resolve an epoch collision.
    await Promise.all(conns.map((c, i) => c.call('CLUSTER', 'SET-CONFIG-EPOCH', String(i + 1))));
    await Promise.all(conns.map((c, i) => c.call('CLUSTER', 'ADDSLOTSRANGE', String(ranges[i]![0]), String(ranges[i]![1]))));
    for (const n of started.slice(1)) {
      // The bus port must be named: without it MEET assumes port + 10000.
      await conns[0]!.call('CLUSTER', 'MEET', n.server.host, String(clientPort(n)), String(n.busPort));
    }
    await waitForAgreement(conns);
  } catch (err) {
    await stop();
    throw err;
  } finally {
    await Promise.all(conns.map((c) => c.quit().catch(() => undefined)));
  }
  const nodes = started.map((n) => `${n.server.host}:${clientPort(n)}`);
  let stopping: Promise<void> | undefined;
  return {
    nodes,
    nodesEnv: nodes.join(','),
    client: () =>
      new Cluster(
        started.map((n) => ({ host: n.server.host, port: clientPort(n) })),
        { redisOptions: { maxRetriesPerRequest: 1, ...connOpts } },
      ),
    masters: () => started.map((n) => new Redis(clientPort(n), n.server.host, { maxRetriesPerRequest: 1, ...connOpts })),
    kill: (i) => started[i]!.server.kill(),
    restart: async (i) => {
      const n = started[i]!;
      n.server = await startRedisServer({ label: n.label, dir: n.dir, port: n.server.port, args: [...nodeArgs(n.busPort), ...n.extra] });
      if (tls) await closePlainPort(n, tls);
    },
    stop: () => (stopping ??= stop()),
  };
}
