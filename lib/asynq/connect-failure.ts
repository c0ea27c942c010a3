/**
 * Why a connection to Redis could not be made, in words an operator can act on, where the
 * client library's own error does not say: a Cluster client that reached no node reports only
 * "Failed to refresh slots cache.", and a TLS server that refuses a missing client certificate
 * often shows up as a bare reset. Each explanation opens its own short-lived connections; the
 * callers run at most one at a time, and only while Redis cannot be reached.
 */
import { connect as tlsConnect, type ConnectionOptions as TlsOptions } from 'node:tls';
import { Redis } from 'ioredis';
import { credentials, formatHostPort, tlsOptions, type HostPort, type RedisTarget } from './connection';
import { NO_SENTINEL_ANSWERED } from './redis';

/** How many seeds {@link explainClusterFailure} asks, one after another. */
const SEEDS_EXPLAINED = 3;

/** Error texts that only say the connection went away, not why. */
const BARE_RESET = /ECONNRESET|EPIPE|Connection is closed/;

/** How long the bare TLS handshake waits for the server's alert (a few ms on a quiet host). */
const TLS_ALERT_WAIT_MS = 2000;

/**
 * Why a Cluster client reached no node. ioredis asks for the slot map on throwaway connections
 * whose errors it discards; one plain connection to a seed, with the nodes' own credentials and
 * TLS, says why: a refused connect, WRONGPASS, a certificate error, or a node that answers but
 * reports `cluster_state:fail`. Null once a seed says `cluster_state:ok` (the failure was
 * passing). Cost: per seed asked (at most 3), one connect and one CLUSTER INFO, each bounded by
 * `timeoutMs`, plus a bare TLS handshake when the answer was only a reset.
 */
export async function explainClusterFailure(target: Extract<RedisTarget, { kind: 'cluster' }>, timeoutMs = 2000): Promise<string | null> {
  const url = new URL(target.url);
  const tls = tlsOptions(url, target.tls);
  const { db: _db, ...auth } = credentials(url);
  const reasons: string[] = [];
  for (const node of target.nodes.slice(0, SEEDS_EXPLAINED)) {
    const conn = new Redis({
      host: node.host, port: node.port, ...auth, ...(tls ? { tls } : {}),
      lazyConnect: true, enableReadyCheck: false, retryStrategy: () => null, maxRetriesPerRequest: 0,
      connectTimeout: timeoutMs, commandTimeout: timeoutMs,
    });
    // The first error is the cause (WRONGPASS, a certificate); later ones only say it closed.
    let cause: string | undefined;
    conn.on('error', (err: Error) => (cause ??= err.message));
    try {
      await conn.connect();
      const state = /cluster_state:(\w+)/.exec(String(await conn.call('CLUSTER', 'INFO')))?.[1] ?? 'unknown';
      if (state === 'ok') return null;
      reasons.push(`${formatHostPort(node)} says cluster_state:${state}`);
    } catch (err) {
      const why = cause ?? (err instanceof Error ? err.message : String(err));
      reasons.push(`${formatHostPort(node)}: ${(await explainTlsReset(node, tls, why)) ?? why}`);
    } finally {
      conn.disconnect();
    }
  }
  return reasons.join('; ');
}

/**
 * Whether {@link explainConnectFailure} can add anything to the client's error `message`: a
 * Cluster client that reached no node, or a bare reset over TLS from one server or from the
 * sentinels. (A Sentinel data node's failure is left to the client's own words: its address
 * changes.)
 */
export function explainable(target: RedisTarget, message: string): boolean {
  if (target.kind === 'cluster') return message.startsWith('Failed to refresh slots cache');
  const tls = tlsOptions(new URL(target.url), target.tls) !== undefined;
  if (target.kind === 'standalone') return BARE_RESET.test(message) && tls;
  return NO_SENTINEL_ANSWERED.test(message) && BARE_RESET.test(message) && tls;
}

/** The reason behind the client's error `message` (see {@link explainable}), or null. */
export async function explainConnectFailure(target: RedisTarget, message: string): Promise<string | null> {
  if (!explainable(target, message)) return null;
  if (target.kind === 'cluster') {
    const why = await explainClusterFailure(target);
    return why && `no node of the cluster answered (${why})`;
  }
  const url = new URL(target.url);
  if (target.kind === 'sentinel') {
    // The sentinels are reached with the same TLS settings (connection.ts); the first one speaks for them.
    const sentinel = target.sentinels[0]!;
    const why = await explainTlsReset(sentinel, tlsOptions(url, target.tls), message);
    return why && `sentinel ${formatHostPort(sentinel)}: ${why}`;
  }
  return explainTlsReset({ host: url.hostname, port: Number(url.port || 6379) }, tlsOptions(url, target.tls), message);
}

/**
 * Under TLS 1.3 a server checks the client certificate only after the client has finished its
 * side of the handshake, and the client has written its first command (AUTH, INFO) by then: the
 * server's "certificate required" alert then often loses the race with the reset, and all the
 * client reports is ECONNRESET or EPIPE. A bare handshake that writes nothing receives the
 * alert. Null when `message` is not a bare reset, without TLS, or when the handshake shows no
 * refusal within 2 s. Cost: one TLS handshake.
 */
async function explainTlsReset(node: HostPort, tls: TlsOptions | undefined, message: string): Promise<string | null> {
  if (!tls || !BARE_RESET.test(message)) return null;
  return new Promise((resolve) => {
    const socket = tlsConnect({ host: node.host, port: node.port, ...tls });
    const done = (why: string | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(why);
    };
    const timer = setTimeout(() => done(null), TLS_ALERT_WAIT_MS);
    socket.once('error', (err: Error) => done(err.message));
    socket.once('close', () => done(null));
  });
}
