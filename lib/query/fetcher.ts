/**
 * The one way the browser talks to the API: fetch, map failures to {@link ApiError}, and (in
 * development) parse every success with the contract's zod schema, so a drifting server fails
 * loudly here rather than as `undefined` deep in a component. See contracts.ts for why the
 * production bundle carries the schemas' types but not zod.
 */
import type { z } from 'zod';
import { ApiError, readErrorEnvelope } from '@/lib/contract/error-envelope';
import { contracts, type SchemaLoader } from './contracts';

export { ApiError };

export const isApiError = (err: unknown): err is ApiError => err instanceof ApiError;

/** True for the 503 the API answers while Redis is unreachable. */
export const isRedisDown = (err: unknown): boolean => isApiError(err) && err.code === 'redis_unavailable';

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
  throw readErrorEnvelope(res.status, body) ?? new ApiError(res.status, 'http_error', `${res.status} ${res.statusText || 'error'}`);
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

/** One value per line of an NDJSON body, as its lines arrive. */
export async function* ndjsonLines(body: NonNullable<Response['body']>): AsyncGenerator<unknown> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += value;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line) yield JSON.parse(line);
    }
  }
  if (buffered.trim()) yield JSON.parse(buffered);
}

type StreamLine = { progress: unknown } | { result: unknown } | { error: unknown };

/**
 * A POST whose work reports progress (a bulk action, a search action, a re-run), the one reader
 * of the API's NDJSON answers: `onProgress` gets each `{"progress":…}` line as it arrives; the
 * `{"result":…}` line is the answer, an `{"error":…}` line throws its ApiError (the stream
 * started with a 200, so the error's own status is not known: 500). Lines are checked against
 * the contract's schemas in development, like every answer. Aborting `signal` closes the
 * request, which stops the server's work too.
 */
export async function apiStream<P extends z.ZodType, R extends z.ZodType>(
  path: string,
  body: unknown,
  schemas: { progress: SchemaLoader<P>; result: SchemaLoader<R> },
  onProgress: (progress: z.infer<P>) => void,
  signal?: AbortSignal,
): Promise<z.infer<R>> {
  const res = await send(path, {
    method: 'POST',
    body: JSON.stringify(body),
    signal,
    headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
  });
  if (!res.body || !(res.headers.get('content-type') ?? '').includes('application/x-ndjson')) {
    return checked(path, await res.json(), schemas.result);
  }
  const lineSchema = contracts.streamLine(schemas.progress, schemas.result);
  let result: { value: z.infer<R> } | undefined;
  for await (const value of ndjsonLines(res.body)) {
    const line = (await checked(path, value, lineSchema)) as StreamLine;
    if ('progress' in line) onProgress(line.progress as z.infer<P>);
    else if ('result' in line) result = { value: line.result as z.infer<R> };
    else throw readErrorEnvelope(500, line) ?? new ApiError(0, 'bad_response', `Unexpected line from ${path}`);
  }
  if (!result) throw new ApiError(0, 'bad_response', `${path} ended without a result.`);
  return result.value;
}

/** Raw bytes (the on-demand payload download). */
export async function apiBytes(path: string, signal?: AbortSignal): Promise<Uint8Array> {
  const res = await send(path, { signal, headers: { accept: 'application/octet-stream' } });
  return new Uint8Array(await res.arrayBuffer());
}
