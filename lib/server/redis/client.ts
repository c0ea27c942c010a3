import 'server-only';
import { createInspector, type InspectorFacade } from '@asynqlens/asynq';
import { explainable, explainConnectFailure } from '@asynqlens/asynq/connect-failure';
import { connect, type RedisTarget } from '@asynqlens/asynq/connection';
import type { RedisClient } from '@asynqlens/asynq/redis-client';
import { env } from '../config/env';
import { instrumentRedis } from '../telemetry/redis';
import { redisTarget } from './target';

/**
 * One Redis client per process (a Cluster client on a cluster). Cached on globalThis so that
 * hot reloads in development reuse it instead of leaking a connection per edit.
 */
const g = globalThis as unknown as { asynqlensRedis?: RedisClient; asynqlensInspector?: InspectorFacade; asynqlensLastError?: string };

export function getRedis(): RedisClient {
  if (!g.asynqlensRedis) {
    const client = connect(redisTarget(), { commandTimeoutMs: env().ASYNQLENS_COMMAND_TIMEOUT_MS, connectionName: 'asynqlens' });
    // Errors surface per request as 503s; without a listener ioredis would log each retry.
    // The latest one is kept: a request only sees "Connection is closed", while the reason
    // (a refused password, an untrusted certificate) arrived on the connection.
    client.on('error', (err: Error) => {
      // "Reached the max retries per request limit" is about a queued command, not the
      // connection: the reason seen before it stays the one to show.
      if (!/max retries per request/i.test(err.message)) g.asynqlensLastError = err.message;
    });
    client.on('ready', () => (g.asynqlensLastError = undefined));
    explainFailures(client, redisTarget());
    // Every command's latency and failures, into the console's own metrics (/metrics).
    instrumentRedis(client);
    // ioredis gives up for good in a few corners (a Sentinel failover announced while the
    // client is between reconnect attempts ends it for good). A client that has ended is
    // replaced on the next request, so the console always recovers by itself.
    client.once('end', () => {
      if (g.asynqlensRedis !== client) return;
      g.asynqlensRedis = undefined;
      g.asynqlensInspector = undefined;
    });
    g.asynqlensRedis = client;
  }
  return g.asynqlensRedis;
}

/**
 * Where the client's own error does not say why it cannot connect, puts the reason in its
 * place once known (lib/asynq/connect-failure.ts): a Cluster client that reached no node says
 * only "Failed to refresh slots cache.", and a TLS server refusing a missing client certificate
 * often shows up as a bare reset. One explanation at a time: while Redis stays unreachable, each
 * failed connect attempt (one per request at most) may start the next, so the reason follows
 * what changes (a password fixed, a node back).
 */
function explainFailures(client: RedisClient, target: RedisTarget): void {
  let why: string | undefined;
  let explaining = false;
  const show = () => {
    if (why && client.status !== 'ready') g.asynqlensLastError = why;
  };
  client.on('ready', () => (why = undefined));
  client.on('error', (err: Error) => {
    if (!explainable(target, err.message)) {
      // It says why itself (a refused connect, WRONGPASS, the certificate alert when it wins
      // its race): shown as it is, and the reason for the bare errors that may follow it.
      if (!/max retries per request/i.test(err.message)) why = err.message;
      return;
    }
    show();
    if (explaining) return;
    explaining = true;
    void explainConnectFailure(target, err.message)
      .then((reason) => {
        // A probe that found nothing (a handshake slower than its wait on a loaded host) keeps
        // the reason found before: the same bare error most likely has the same cause.
        if (reason) why = reason;
        show();
      })
      .finally(() => (explaining = false));
  });
}

/** The deployment kind, for health checks and the Redis page. */
export function redisMode(): 'standalone' | 'sentinel' | 'cluster' {
  return redisTarget().kind;
}

export function getInspector(): InspectorFacade {
  g.asynqlensInspector ??= createInspector(getRedis(), { archiveTimeZone: env().ASYNQLENS_SERVER_TZ });
  return g.asynqlensInspector;
}

/** Why the last connection attempt failed, while it has not connected since (else undefined). */
export function lastConnectionError(): string | undefined {
  return g.asynqlensLastError;
}
