/**
 * A server's heartbeat record and lease extension, written the way asynq's heartbeater does
 * so Go's Inspector and asynqmon list our servers and their workers.
 */
import type { RedisClient } from '../../redis-client';
import { encodeServerInfo, encodeWorkerInfo } from '../../codec';
import * as k from '../../keys';
import { execPipeline, runScript } from '../../scripts';
import type { ServerInfo, WorkerInfo } from '../../types';
import { LEASE_SECONDS, unixSeconds } from './codes';

/**
 * Registers the server and its workers until now + ttl: two ZADDs on the global registries
 * (other cluster slots, so outside the script) pipelined in one round trip, then the script
 * (SETEX the ServerInfo, rebuild the workers hash), a second round trip. O(W) for W workers.
 */
export async function writeServerState(redis: RedisClient, info: ServerInfo, workers: readonly WorkerInfo[], ttlSeconds: number, now: Date): Promise<void> {
  const serverKey = k.serverInfoKey(info.host, info.pid, info.serverId);
  const workersKey = k.workersKey(info.host, info.pid, info.serverId);
  const expiry = unixSeconds(now) + ttlSeconds;
  await execPipeline(redis, (p) => p.zadd(k.ALL_SERVERS, expiry, serverKey).zadd(k.ALL_WORKERS, expiry, workersKey));
  const args: (string | number | Buffer)[] = [ttlSeconds, Buffer.from(encodeServerInfo(info))];
  for (const w of workers) args.push(w.taskId, Buffer.from(encodeWorkerInfo(w)));
  await runScript(redis, 'workerWriteServerState', [serverKey, workersKey], args);
}

/**
 * Removes the server's records at shutdown (ZREM both registries, DEL both keys, one DEL each
 * since they are in different cluster slots). One round trip (one per slot on a cluster).
 */
export async function clearServerState(redis: RedisClient, host: string, pid: number, serverId: string): Promise<void> {
  const serverKey = k.serverInfoKey(host, pid, serverId);
  const workersKey = k.workersKey(host, pid, serverId);
  await execPipeline(redis, (p) => p.zrem(k.ALL_SERVERS, serverKey).zrem(k.ALL_WORKERS, workersKey).del(serverKey).del(workersKey));
}

/**
 * Pushes the lease of `ids` to now + 30 s. `ZADD XX` only updates members still there, so a
 * task a recoverer already took is not re-leased. One round trip, O(M log N).
 * Returns the new expiry.
 */
export async function extendLease(redis: RedisClient, qname: string, ids: readonly string[], now: Date): Promise<Date> {
  const expiresAt = new Date(now.getTime() + LEASE_SECONDS * 1000);
  const score = unixSeconds(expiresAt);
  if (ids.length > 0) await redis.zadd(k.leaseKey(qname), 'XX', ...ids.flatMap((id) => [score, id]));
  return expiresAt;
}
