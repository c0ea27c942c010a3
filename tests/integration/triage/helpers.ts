/**
 * Shared by the triage suites: a Redis database (DB 70–79), seeding of failed tasks as asynq's
 * worker leaves them, live-server heartbeats, and calls of the triage routes.
 *
 * These suites own DB 70–79 of the run's shared redis-server (tests/support/global-redis.ts
 * starts it with 128 databases). Should a run's server have fewer, a suite whose database is
 * out of range starts a private redis-server for itself rather than borrow another suite's.
 */
import type { Redis as RedisClient } from 'ioredis';
import { Redis } from 'ioredis';
import { afterAll, beforeEach, inject } from 'vitest';
import { startRedisServer, type RunningRedis } from '../../../scripts/support/redis-server';
import { encodeServerInfo } from '@/lib/asynq/codec';
import * as k from '@/lib/asynq/keys';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import { seedZset } from '@/lib/asynq/testutil/seed';
import type { TaskMessage } from '@/lib/asynq/types';
import { forgetTriageScans } from '@/lib/server/jobs/triage-scans';
import { callRoute, type Handler } from '../../support/call-route';

let own: Promise<RunningRedis> | undefined;

export interface TriageRedis {
  redis: RedisClient;
  port: number;
  url: string;
}

/** A flushed connection on `db`, and REDIS_URL pointing the routes at it. */
export async function openTriageRedis(db: number): Promise<TriageRedis> {
  let port = inject('redisPort');
  const probe = new Redis(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: 1 });
  const [, dbs] = (await probe.config('GET', 'databases')) as [string, string];
  await probe.quit();
  if (Number(dbs) <= db) {
    own ??= startRedisServer({ label: 'triage', args: ['--databases', '128'] });
    port = (await own).port;
  }
  const url = `redis://127.0.0.1:${port}/${db}`;
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  await redis.flushdb();
  process.env.REDIS_URL = url;
  return { redis, port, url };
}

/**
 * The three scan test files' set-up in one line: a flushed connection on `db` with REDIS_URL
 * pointing the routes at it, and every test starting on an empty database with no scan kept.
 */
export async function useTriageRedis(db: number): Promise<RedisClient> {
  const { redis } = await openTriageRedis(db);
  afterAll(async () => {
    forgetTriageScans();
    await redis.quit();
  });
  beforeEach(async () => {
    forgetTriageScans();
    await redis.flushdb();
  });
  return redis;
}

afterAll(async () => {
  if (own) await (await own).stop();
});

export const nowSec = (): number => Math.floor(Date.now() / 1000);

/** The error asynq's not-found handler stores (printable type names: Go and JSON quote alike). */
export const notFoundError = (type: string): string => `handler not found for task ${JSON.stringify(type)}`;

export interface FailedSeed {
  queue: string;
  type: string;
  state: 'retry' | 'archived';
  error: string;
  retried?: number;
  lastFailedAt?: number;
  id?: string;
}

/** A retry or archived task as asynq's Retry/Archive leave it (score: retry-at / archived-at). */
export async function seedFailed(redis: RedisClient, s: FailedSeed): Promise<TaskMessage> {
  const failedAt = s.lastFailedAt ?? nowSec();
  const m = newTaskMessage({ type: s.type, queue: s.queue, errorMsg: s.error, retried: s.retried ?? (s.state === 'archived' ? 25 : 1), lastFailedAt: failedAt, ...(s.id ? { id: s.id } : {}) });
  await seedZset(redis, s.state, m, s.state === 'retry' ? failedAt + 3600 : failedAt);
  return m;
}

/** A live server heartbeat listening on `queues` (expires in 30 s). */
export async function seedServer(redis: RedisClient, serverId: string, queues: Record<string, number>, host = 'worker-1', pid = 42, startedAt = new Date()): Promise<void> {
  const key = k.serverInfoKey(host, pid, serverId);
  const info = { host, pid, serverId, concurrency: 10, queues, strictPriority: false, status: 'active', startedAt, activeWorkerCount: 0 };
  await redis.setex(key, 30, Buffer.from(encodeServerInfo(info)));
  await redis.zadd(k.ALL_SERVERS, nowSec() + 30, key);
}

/** GET a triage route; the JSON body and status. */
export async function get(handler: Handler, path: string) {
  return callRoute(handler, path);
}

/** POST JSON as the app's own pages do. */
export async function postJson(handler: Handler, path: string, body: unknown, headers: Record<string, string> = {}) {
  return callRoute(handler, path, {}, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

/** Polls a scan route until it answers `complete: true`. */
export async function untilComplete(handler: Handler, path: string, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await callRoute(handler, path);
    if (r.status !== 200 || r.body.complete || Date.now() > end) return r;
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** POST JSON asking for NDJSON progress; the status and every line, parsed. */
export async function postNdjson(handler: Handler, path: string, body: unknown) {
  const req = new Request(`http://localhost${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
    body: JSON.stringify(body),
  });
  const res = await handler(req, { params: Promise.resolve({}) });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), lines: text.trim().split('\n').map((l) => JSON.parse(l)) };
}
