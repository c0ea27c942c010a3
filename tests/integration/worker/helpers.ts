/**
 * Shared by the worker integration tests: a server with short intervals and a captured log,
 * polling until Redis reaches a state, and a reader of one task's record.
 */
import type { Redis } from 'ioredis';
import { decodeTaskMessage } from '@/lib/asynq/codec';
import * as k from '@/lib/asynq/keys';
import type { TaskMessage } from '@/lib/asynq/types';
import { afterEach } from 'vitest';
import { Server, type Handler, type ServerConfig } from '@/lib/asynq/worker';

export interface TestServer {
  server: Server;
  logs: string[];
}

/** Starts a server whose housekeeping runs every 100–200 ms instead of asynq's seconds. */
export async function startTestServer(redis: Redis, handler: Handler, config: ServerConfig = {}): Promise<TestServer> {
  const logs: string[] = [];
  const log = (level: string) => (m: string) => void logs.push(`${level}: ${m}`);
  const server = new Server(redis, {
    concurrency: 4,
    taskCheckIntervalMs: 100,
    delayedTaskCheckIntervalMs: 100,
    janitorIntervalMs: 100,
    heartbeatIntervalMs: 1000,
    shutdownTimeoutMs: 1000,
    logger: { info: log('info'), warn: log('warn'), error: log('error') },
    ...config,
  });
  await server.start(handler);
  return { server, logs };
}

export { waitFor } from '../../support/wait-for';

export interface StoredTask {
  state: string;
  msg: TaskMessage;
  result: Buffer | null;
  pendingSince: string | null;
  group: string | null;
}

/** The task's hash, decoded; null when the hash is gone. One round trip. */
export async function readTask(redis: Redis, qname: string, id: string): Promise<StoredTask | null> {
  const h = await redis.hgetallBuffer(k.taskKey(qname, id));
  if (!h.msg) return null;
  return {
    state: h.state?.toString() ?? '',
    msg: decodeTaskMessage(h.msg),
    result: h.result ?? null,
    pendingSince: h.pending_since?.toString() ?? null,
    group: h.group?.toString() ?? null,
  };
}

/** Task state, or 'deleted' when the hash is gone. */
export async function stateOf(redis: Redis, qname: string, id: string): Promise<string> {
  return (await readTask(redis, qname, id))?.state ?? 'deleted';
}

export const nowSec = (): number => Math.floor(Date.now() / 1000);

/** The servers a test starts (push them here), shut down after each test. */
export function useServers(): Server[] {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.shutdown();
  });
  return servers;
}
