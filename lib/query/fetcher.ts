/**
 * The one way the browser talks to the API: fetch, map failures to {@link ApiError}, and (in
 * development) parse every success with the contract's zod schema, so a drifting server fails
 * loudly here rather than as `undefined` deep in a component. See contracts.ts for why the
 * production bundle carries the schemas' types but not zod.
 */
import type { z } from 'zod';
import type { SchemaLoader } from './contracts';

/** An API failure with the contract's error code (`redis_unavailable`, `task_not_found`, …). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const isApiError = (err: unknown): err is ApiError => err instanceof ApiError;

/** True for the 503 the API answers while Redis is unreachable. */
export const isRedisDown = (err: unknown): boolean => isApiError(err) && err.code === 'redis_unavailable';

/** `{ error: { code, message, ...details } }`, checked by hand (zod stays out of the bundle). */
function errorFromBody(status: number, body: unknown): ApiError | null {
  const e = (body as { error?: unknown } | null)?.error;
  if (typeof e !== 'object' || e === null) return null;
  const { code, message, ...details } = e as Record<string, unknown>;
  if (typeof code !== 'string' || typeof message !== 'string') return null;
  return new ApiError(status, code, message, details);
}

async function send(path: string, init?: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(path, { ...init, headers: { accept: 'application/json', ...init?.headers } });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'network', 'The dashboard server cannot be reached.');
  }
  if (res.ok) return res;
  const body: unknown = await res.json().catch(() => null);
  throw errorFromBody(res.status, body) ?? new ApiError(res.status, 'http_error', `${res.status} ${res.statusText || 'error'}`);
}

async function checked<S extends z.ZodType>(path: string, body: unknown, schema: SchemaLoader<S>): Promise<z.infer<S>> {
  if (process.env.NODE_ENV === 'production') return body as z.infer<S>;
  const parsed = (await schema()).safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ApiError(0, 'bad_response', `Unexpected response from ${path}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`);
}

/** GETs `path`; the body has the shape of `schema` (checked in development). */
export async function apiFetch<S extends z.ZodType>(path: string, schema: SchemaLoader<S>, init?: RequestInit): Promise<z.infer<S>> {
  const res = await send(path, init);
  return checked(path, await res.json(), schema);
}

/**
 * A mutation. Bodies are always JSON (the API answers 415 to anything else, which is what keeps
 * cross-site form posts out); POSTs without a documented body send `{}`, which every such route
 * accepts. A 2xx without a schema (or a 204) resolves to undefined.
 */
export async function apiMutate<S extends z.ZodType>(
  method: 'POST' | 'PATCH' | 'DELETE',
  path: string,
  opts: { body?: unknown; schema?: SchemaLoader<S> } = {},
): Promise<z.infer<S> | undefined> {
  const body = opts.body ?? (method === 'DELETE' ? undefined : {});
  const init: RequestInit =
    body === undefined ? { method } : { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
  const res = await send(path, init);
  if (!opts.schema || res.status === 204) return undefined;
  return checked(path, await res.json(), opts.schema);
}

/**
 * A POST answered with NDJSON (one JSON value per line, streamed): `onLine` gets each value as
 * its line arrives. Aborting `signal` closes the request, which stops the server's work too.
 */
export async function apiLines(path: string, body: unknown, onLine: (value: unknown) => void, signal?: AbortSignal): Promise<void> {
  const res = await send(path, {
    method: 'POST',
    body: JSON.stringify(body),
    signal,
    headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
  });
  if (!res.body) return onLine(await res.json());
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += value;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line) onLine(JSON.parse(line));
    }
  }
  if (buffered.trim()) onLine(JSON.parse(buffered));
}

/** Raw bytes (the on-demand payload download). */
export async function apiBytes(path: string, signal?: AbortSignal): Promise<Uint8Array> {
  const res = await send(path, { signal, headers: { accept: 'application/octet-stream' } });
  return new Uint8Array(await res.arrayBuffer());
}
