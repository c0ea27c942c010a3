/**
 * Shared by the Redis-fault suites: calling routes as the browser does, timing them, and
 * waiting for a condition with a deadline (a fault suite must never hang on a broken Redis).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { startRedisServer, type RunningRedis } from '../../../scripts/support/redis-server';
import { callRoute, type Handler } from '../../support/call-route';

const JSON_HEADERS = { 'content-type': 'application/json' };

export const post = (handler: Handler, params: Record<string, string>, body: unknown = {}) =>
  callRoute(handler, '/api/x', params, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) });

export const get = (handler: Handler, params: Record<string, string> = {}, path = '/api/x') => callRoute(handler, path, params);

/** Runs `fn` and returns its result with the elapsed milliseconds. */
export async function timed<T>(fn: () => Promise<T>): Promise<T & { ms: number }> {
  const started = performance.now();
  const out = await fn();
  return { ...out, ms: Math.round(performance.now() - started) };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` every `everyMs` until it returns true; throws naming `what` after `timeoutMs`. */
export async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 10_000, everyMs = 50): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await check()) return Date.now() - started;
    await sleep(everyMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** Prints a measured number so the run's output documents it (the assertions bound it). */
export function report(what: string, ms?: number): void {
  console.log(`[faults] ${what}${ms === undefined ? '' : `: ${ms} ms`}`);
}

/** A private redis-server that `DEBUG SLEEP` can stall, and a connection to seed and stall it (the app has its own). */
export interface StallableRedis {
  server: RunningRedis;
  admin: Redis;
}

/** Starts the suite's stallable redis-server before its tests, with the console on it at `timeoutMs`; stops it after. */
export function useStallableRedis(label: string, timeoutMs: number): StallableRedis {
  const r = {} as StallableRedis;
  beforeAll(async () => {
    r.server = await startRedisServer({ label, args: ['--enable-debug-command', 'local'] });
    process.env.REDIS_URL = `${r.server.url}/0`;
    process.env.ASYNQLENS_COMMAND_TIMEOUT_MS = String(timeoutMs);
    r.admin = new Redis(r.server.url, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    r.admin.disconnect();
    await r.server.stop();
  });
  return r;
}
