/**
 * Shared by the Redis-fault suites: calling routes as the browser does, timing them, and
 * waiting for a condition with a deadline (a fault suite must never hang on a broken Redis).
 */
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
