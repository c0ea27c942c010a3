import 'server-only';
import { describeTarget, parseHostPort, type RedisTarget, type TlsSettings } from '@asynqlens/asynq/connection';
import { env } from '../config/env';

/**
 * The configured Redis deployment, checked once: a plain server (REDIS_URL), a Sentinel-managed
 * master (ASYNQLENS_REDIS_SENTINELS + ASYNQLENS_REDIS_SENTINEL_MASTER) or a Cluster
 * (ASYNQLENS_REDIS_CLUSTER_NODES), from settings env() has checked one by one. Each mistake in
 * how they combine is reported naming the variables and the rule.
 */
let cached: RedisTarget | undefined;

function list(text: string, setting: string) {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => parseHostPort(s, setting));
}

export function redisTarget(): RedisTarget {
  if (cached) return cached;
  const e = env();
  const db = new URL(e.REDIS_URL).pathname.replace(/^\//, '');
  const tls: TlsSettings = {
    caFile: e.ASYNQLENS_REDIS_TLS_CA_FILE,
    certFile: e.ASYNQLENS_REDIS_TLS_CERT_FILE,
    keyFile: e.ASYNQLENS_REDIS_TLS_KEY_FILE,
    serverName: e.ASYNQLENS_REDIS_TLS_SERVERNAME,
    insecure: e.ASYNQLENS_REDIS_TLS_INSECURE || undefined,
  };
  if ((tls.certFile === undefined) !== (tls.keyFile === undefined)) {
    throw new Error('ASYNQLENS_REDIS_TLS_CERT_FILE and ASYNQLENS_REDIS_TLS_KEY_FILE go together: set both or neither');
  }
  const sentinels = list(e.ASYNQLENS_REDIS_SENTINELS, 'ASYNQLENS_REDIS_SENTINELS');
  const nodes = list(e.ASYNQLENS_REDIS_CLUSTER_NODES, 'ASYNQLENS_REDIS_CLUSTER_NODES');
  if (sentinels.length > 0 && nodes.length > 0) {
    throw new Error('ASYNQLENS_REDIS_SENTINELS and ASYNQLENS_REDIS_CLUSTER_NODES: choose one deployment, not both');
  }
  if (sentinels.length > 0) {
    if (!e.ASYNQLENS_REDIS_SENTINEL_MASTER) {
      throw new Error('ASYNQLENS_REDIS_SENTINEL_MASTER: required with ASYNQLENS_REDIS_SENTINELS (the name in `sentinel monitor <name> …`)');
    }
    cached = {
      kind: 'sentinel',
      url: e.REDIS_URL,
      sentinels,
      masterName: e.ASYNQLENS_REDIS_SENTINEL_MASTER,
      sentinelUsername: e.ASYNQLENS_REDIS_SENTINEL_USERNAME,
      sentinelPassword: e.ASYNQLENS_REDIS_SENTINEL_PASSWORD,
      tls,
    };
  } else if (nodes.length > 0) {
    if (db !== '' && db !== '0') throw new Error(`REDIS_URL: Redis Cluster has only database 0, got /${db}`);
    cached = { kind: 'cluster', url: e.REDIS_URL, nodes, tls };
  } else {
    if (e.ASYNQLENS_REDIS_SENTINEL_MASTER) {
      throw new Error('ASYNQLENS_REDIS_SENTINEL_MASTER: set ASYNQLENS_REDIS_SENTINELS too (host:port of each sentinel)');
    }
    cached = { kind: 'standalone', url: e.REDIS_URL, tls };
  }
  return cached;
}

/** Where the configured Redis is, without credentials, for error messages and health checks. */
export function redisAddress(): string {
  return describeTarget(redisTarget());
}
