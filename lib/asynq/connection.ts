/**
 * Where Redis is and how to reach it: one plain Redis, a Sentinel-managed master, or a Redis
 * Cluster — the three deployments asynq's own clients support (RedisClientOpt,
 * RedisFailoverClientOpt, RedisClusterClientOpt). Credentials, database and TLS come from the
 * URL and the TLS settings whatever the topology, so one set of settings describes them all.
 */
import { readFileSync } from 'node:fs';
import type { ConnectionOptions as TlsOptions } from 'node:tls';
import { Cluster, type ClusterOptions, type Redis, type RedisOptions } from 'ioredis';
import { baseRedisOptions, createRedis, guardConnection, NO_SENTINEL_ANSWERED, noteSentinelsSilent, NotSentError, refuseUntilReady, ReplyLostError } from './redis';
import { learnVersionOnConnect } from './scripts/read-only-eval';

export interface HostPort {
  host: string;
  port: number;
}

export interface TlsSettings {
  /** PEM file of the CA that signed the server's certificate (default: Node's CA store). */
  caFile?: string;
  /** Client certificate and key (PEM) for servers that require mutual TLS. */
  certFile?: string;
  keyFile?: string;
  /** Name to verify the certificate against when it differs from the host connected to. */
  serverName?: string;
  /** Skip certificate verification. Only for testing: it lets anyone in the path read the traffic. */
  insecure?: boolean;
}

export type RedisTarget =
  | { kind: 'standalone'; url: string; tls?: TlsSettings }
  | {
      kind: 'sentinel';
      /** Credentials, db and TLS of the data nodes; its host is ignored (the sentinels name the master). */
      url: string;
      sentinels: HostPort[];
      masterName: string;
      sentinelUsername?: string;
      sentinelPassword?: string;
      tls?: TlsSettings;
    }
  | {
      kind: 'cluster';
      /** Credentials and TLS of the nodes; its host is ignored (the seeds lead to every node). */
      url: string;
      nodes: HostPort[];
      tls?: TlsSettings;
    };

export interface ConnectSettings {
  /** Milliseconds before a command counts as failed. */
  commandTimeoutMs?: number;
  /** Client name shown by CLIENT LIST, so an operator can tell the dashboard's connections apart. */
  connectionName?: string;
}

export function formatHostPort({ host, port }: HostPort): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** `host:port` → HostPort; the error names the setting and the rule. */
export function parseHostPort(text: string, setting: string): HostPort {
  const m = /^\[?([^\]\s]+?)\]?:(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || !m[1] || port < 1 || port > 65535) {
    throw new Error(`${setting}: "${text}" is not host:port (port 1–65535)`);
  }
  return { host: m[1], port };
}

/** The address errors and health checks name: where requests go, never the credentials. */
export function describeTarget(target: RedisTarget): string {
  switch (target.kind) {
    case 'standalone': {
      const u = new URL(target.url);
      const db = u.pathname && u.pathname !== '/' ? u.pathname : '';
      return `${u.hostname}:${u.port || '6379'}${db}`;
    }
    case 'sentinel':
      return `sentinel master "${target.masterName}" via ${target.sentinels.map(formatHostPort).join(',')}`;
    case 'cluster':
      return `cluster ${target.nodes.map(formatHostPort).join(',')}`;
  }
}

/** Node TLS options for `url` and the TLS settings; undefined when neither asks for TLS. */
export function tlsOptions(url: URL, tls: TlsSettings | undefined): TlsOptions | undefined {
  const wanted = url.protocol === 'rediss:' || (tls !== undefined && Object.values(tls).some((v) => v !== undefined && v !== false));
  if (!wanted) return undefined;
  return {
    ...(tls?.caFile ? { ca: readFileSync(/*turbopackIgnore: true*/ tls.caFile) } : {}),
    ...(tls?.certFile ? { cert: readFileSync(/*turbopackIgnore: true*/ tls.certFile) } : {}),
    ...(tls?.keyFile ? { key: readFileSync(/*turbopackIgnore: true*/ tls.keyFile) } : {}),
    ...(tls?.serverName ? { servername: tls.serverName } : {}),
    ...(tls?.insecure ? { rejectUnauthorized: false } : {}),
  };
}

/** Username, password and db of a redis:// URL, decoded (ACL users and passwords may hold any byte). */
export function credentials(url: URL): Pick<RedisOptions, 'username' | 'password' | 'db'> {
  const db = url.pathname.replace(/^\//, '');
  return {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
  };
}

/**
 * Opens the client for `target`. Every node connection gets the same fault behaviour as a
 * plain connection (createRedis' options): a dead or stalled node fails requests fast instead
 * of queueing them. Nothing connects until the first command.
 */
export function connect(target: RedisTarget, settings: ConnectSettings = {}): Redis | Cluster {
  const url = new URL(target.url);
  const tls = tlsOptions(url, target.tls);
  const name = settings.connectionName ? { connectionName: settings.connectionName } : {};
  const base = { commandTimeoutMs: settings.commandTimeoutMs };
  switch (target.kind) {
    case 'standalone':
      return withVersion(createRedis({ url: target.url, ...base, redisOptions: { ...name, ...(tls ? { tls } : {}) } }));
    case 'sentinel':
      // ioredis asks the sentinels for the master's address on every (re)connect, so after a
      // failover the next reconnect lands on the promoted replica.
      return guardSentinelLookup(withVersion(createRedis({
        url: target.url,
        ...base,
        redisOptions: {
          ...name,
          sentinels: target.sentinels,
          name: target.masterName,
          role: 'master',
          ...(target.sentinelUsername ? { sentinelUsername: target.sentinelUsername } : {}),
          ...(target.sentinelPassword ? { sentinelPassword: target.sentinelPassword } : {}),
          ...(tls ? { tls, enableTLSForSentinelMode: true, sentinelTLS: tls } : {}),
          sentinelRetryStrategy: (times: number) => Math.min(times * 200, 2000),
          // Listen for the sentinels' +switch-master and reconnect to the promoted replica at
          // once: until the old master is demoted it still accepts writes, which the failover
          // then discards. Cost: one extra subscribed connection per sentinel.
          failoverDetector: true,
          // A master demoted under us answers READONLY: reconnect (through the sentinels) so
          // the next request reaches the new master. The refused command did not run, and is
          // not resent: the request reports the error.
          reconnectOnError: (err: Error) => (err.message.startsWith('READONLY') ? 1 : false),
        },
      })));
    case 'cluster': {
      const { db, ...auth } = credentials(url);
      if (db) throw new Error(`REDIS_URL: Redis Cluster has only database 0, got /${db}`);
      // The per-node options are a plain connection's: no resend after a reconnect, same timeouts.
      const nodeOptions = baseRedisOptions(base);
      const options: ClusterOptions = {
        lazyConnect: true,
        // Reads go to masters: replicas may lag, and the dashboard shows what workers will see.
        scaleReads: 'master',
        // Fail a command after one redirection storm instead of retrying for seconds.
        maxRedirections: 4,
        // No waiting retries when a master is gone: ioredis would retry a command whose node
        // connection closed (or that met CLUSTERDOWN) every 200 ms on a random node, which
        // answers MOVED back to the dead one, for up to 4 × 200 ms, and then report "Too many
        // Cluster redirections" (a 500). A failover takes at least cluster-node-timeout (seconds),
        // so the retries never ride one out; the request answers 503 at once instead, and the
        // next one follows the MOVED to a promoted replica or reconnects to the restarted master.
        retryDelayOnFailover: 0,
        retryDelayOnClusterDown: 0,
        slotsRefreshTimeout: 2000,
        clusterRetryStrategy: (times: number) => Math.min(times * 200, 2000),
        redisOptions: { ...pickNodeOptions(nodeOptions), ...auth, ...name, ...(tls ? { tls } : {}) },
        // Managed clusters announce node addresses that only resolve with TLS SNI; keep the
        // name as announced rather than resolving it to an IP first.
        ...(tls ? { dnsLookup: (address: string, done: (err: Error | null, address: string) => void) => done(null, address) } : {}),
      };
      const cluster = guardClusterClient(new Cluster(target.nodes, options));
      // ioredis makes the node connections itself: each gets the same drop handling as a plain
      // connection (a lost reply fails at once and is never resent).
      cluster.on('+node', (node: Redis) => guardClusterNode(node));
      // A node whose connection closed leaves the pool, but the slot map still names it, so the
      // next command for its slots would go to a random master, meet MOVED back to it and fail
      // (a pipeline does not reconnect on MOVED). Refreshing the slot map puts a fresh, lazy
      // connection to it back in the pool: while it is down, requests fail at once on a refused
      // connect; once it is back, the first request succeeds. Cost: one CLUSTER SLOTS to a
      // healthy master per closed node connection, i.e. per request that met the dead master.
      cluster.on('-node', () => {
        if (cluster.status === 'ready') cluster.refreshSlotsCache();
      });
      return cluster;
    }
  }
}

/**
 * The cluster-level counterpart of {@link guardConnection}. A Cluster client keeps its own
 * offline queue for commands issued while it is not `ready` (connecting, or reconnecting after
 * every node went away) and flushes it only on success: with our endless clusterRetryStrategy, a
 * request made while the whole cluster is unreachable would wait forever. So, as for a plain
 * connection, the queue serves only the very first connect of a lazy client; once that attempt
 * is over (ready or closed) it is off, and a command issued while the cluster is not ready is
 * refused at once ("Cluster isn't ready …"). Commands still queued when an attempt fails were
 * never written anywhere: they fail with {@link NotSentError}.
 */
function guardClusterClient(cluster: Cluster): Cluster {
  const attemptOver = () => {
    cluster.options.enableOfflineQueue = false;
  };
  cluster.on('ready', attemptOver);
  cluster.on('close', () => {
    attemptOver();
    (cluster as unknown as Flushable).flushQueue(new NotSentError('not connected to the Redis Cluster (no node answered)'));
  });
  return cluster;
}

/** The private ioredis member guardClusterNode wraps (present in ioredis 5.x). */
interface Flushable {
  flushQueue(error: Error, options?: { offlineQueue?: boolean; commandQueue?: boolean }): void;
}

/**
 * {@link guardConnection} for a cluster node, plus one thing only node connections need:
 * ioredis never reconnects a node (the cluster makes a new connection when it needs one), so
 * when a node's socket closes it ends the connection and fails every command on it with
 * "Connection is closed." before any listener runs, written or not. Those are told apart
 * here as for a plain connection: a written command's reply was lost (it may have run), an
 * unwritten one was not sent. Neither is retried: the cluster retries only "Connection is
 * closed." (and not at all with retryDelayOnFailover 0).
 */
function guardClusterNode(node: Redis): Redis {
  guardConnection(node);
  learnVersionOnConnect(node);
  const q = node as unknown as Flushable;
  const flush = q.flushQueue.bind(node);
  q.flushQueue = (error, options) => {
    if (options === undefined && error.message === 'Connection is closed.' && node.status === 'end') {
      flush(new ReplyLostError(), { offlineQueue: false });
      flush(new NotSentError('connection to Redis closed before the command was sent'), { commandQueue: false });
      return;
    }
    flush(error, options);
  };
  return node;
}

/**
 * When no sentinel answers, ioredis retries the sentinels (sentinelRetryStrategy) inside the
 * same connect attempt: the client stays `connecting` and emits no `close`, so guardConnection
 * never turns the offline queue off and a request's command would wait there until the command
 * timeout, to be reported as a stall. Each such round ends the attempt as far as requests are
 * concerned: queued commands fail as not sent, with the sentinels' error, later ones are
 * refused at once until the client is ready, and a request does not wait for the next round.
 */
function guardSentinelLookup(redis: Redis): Redis {
  redis.on('error', (err: Error) => {
    if (!NO_SENTINEL_ANSWERED.test(err.message)) return;
    noteSentinelsSilent(redis, true);
    refuseUntilReady(redis, `not connected: ${err.message}`);
  });
  redis.on('ready', () => noteSentinelsSilent(redis, false));
  redis.on('close', () => noteSentinelsSilent(redis, false));
  return redis;
}

/** The settings of a plain connection that make sense for every cluster node. */
function pickNodeOptions(o: RedisOptions): RedisOptions {
  const { lazyConnect: _l, ...rest } = o;
  return rest;
}

/** A plain or Sentinel connection that learns its server's version as it connects. */
function withVersion(redis: Redis): Redis {
  learnVersionOnConnect(redis);
  return redis;
}
