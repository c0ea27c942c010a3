import 'server-only';

/**
 * The answers a route file builds itself, where the status or headers depend on the outcome
 * rather than on the route (route() sends every other answer).
 */

/**
 * Where an answer built by `jsonAnswer` keeps its body as text, under a registered symbol so
 * that the launcher's API lane (bin/api-lane.mjs, plain JavaScript outside the bundle) finds
 * the same key: it writes that text instead of reading it back out of the Response's web
 * stream, which costs about 70 µs of CPU per answer. Next reads the stream, as ever; a body
 * cannot change once built, so the two never differ.
 */
export const BODY_TEXT = Symbol.for('asynqlens.body-text');

/** A JSON answer (what Response.json builds), with its text kept for the API lane. */
export function jsonAnswer(value: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  const text = JSON.stringify(value);
  const res = new Response(text, { status: init.status ?? 200, headers: { 'content-type': 'application/json', ...init.headers } });
  Object.defineProperty(res, BODY_TEXT, { value: text });
  return res;
}

/** 202 `{}`: the change was asked for and happens later (a cancel reaches the worker by pub/sub). */
export const accepted = (): Response => jsonAnswer({}, { status: 202 });

/** Bytes as a file download named `filename`. */
export const attachment = (bytes: Uint8Array, filename: string): Response =>
  new Response(Buffer.from(bytes), {
    headers: {
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename="${encodeURIComponent(filename)}"`,
    },
  });
