/**
 * Live servers and their workers, from the heartbeats they write every 5 s.
 */
import type { RedisClient } from '../redis-client';
import { CodecError, decodeServerInfo, decodeWorkerInfo } from '../codec';
import * as k from '../keys';
import type { ServerWithWorkers, WorkerInfo } from '../types';
import { execPipeline } from '../scripts';

/**
 * Every server whose heartbeat has not expired, with its in-flight tasks, sorted by host,
 * pid and ID. Two round trips: the two registries, then every server key and workers hash.
 *
 * Unlike asynq's inspector this never deletes expired registry members: a dashboard read
 * must not write (it may run read-only, and production servers own that cleanup).
 * A record that fails to decode is skipped, as asynq does: servers rewrite it every 5 s.
 */
export async function listServers(redis: RedisClient, now: Date): Promise<ServerWithWorkers[]> {
  const nowSec = Math.floor(now.getTime() / 1000);
  const [[, serverKeys], [, workerKeys]] = (await execPipeline(redis, (p) =>
    p.zrangebyscore(k.ALL_SERVERS, nowSec, '+inf').zrangebyscore(k.ALL_WORKERS, nowSec, '+inf'),
  )) as [[Error | null, string[]], [Error | null, string[]]];
  if (serverKeys.length === 0) return [];
  // Each server's keys carry its own hash tag: on a cluster this is one pipeline per slot.
  const replies = await execPipeline(redis, (p) => {
    for (const key of serverKeys) p.getBuffer(key);
    for (const key of workerKeys) p.hvalsBuffer(key);
  });
  const workers = new Map<string, WorkerInfo[]>();
  replies.slice(serverKeys.length).forEach(([, vals]) => {
    for (const v of (vals as Buffer[] | null) ?? []) {
      const w = tryDecode(() => decodeWorkerInfo(v));
      if (w) workers.set(w.serverId, [...(workers.get(w.serverId) ?? []), w]);
    }
  });
  const servers: ServerWithWorkers[] = [];
  replies.slice(0, serverKeys.length).forEach(([, bytes]) => {
    if (!Buffer.isBuffer(bytes)) return;
    const s = tryDecode(() => decodeServerInfo(bytes));
    if (s) servers.push({ ...s, workers: sortWorkers(workers.get(s.serverId) ?? []) });
  });
  return servers.sort((a, b) => a.host.localeCompare(b.host) || a.pid - b.pid || a.serverId.localeCompare(b.serverId));
}

function sortWorkers(ws: WorkerInfo[]): WorkerInfo[] {
  return ws.sort((a, b) => (a.startedAt?.getTime() ?? 0) - (b.startedAt?.getTime() ?? 0) || a.taskId.localeCompare(b.taskId));
}

function tryDecode<T>(run: () => T): T | null {
  try {
    return run();
  } catch (err) {
    if (err instanceof CodecError) return null;
    throw err;
  }
}
