import 'server-only';
import { HttpError } from './errors';

/**
 * Reading what a request carries without trusting its size or its encoding: the body up to a
 * byte limit (never buffering past it), and path params that decode to well-formed text.
 */

/** Default body limit of a route: a filter, a selection of IDs, a sign-in. */
export const DEFAULT_MAX_BODY = 64 * 1024;

/** Body limit of a route that takes a long list: 100,000 task IDs, 100,000 task types. */
export const LIST_MAX_BODY = 8 * 1024 * 1024;

const kib = (n: number) => (n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`);

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'payload_too_large', `body: over this route's limit of ${kib(limit)} (${limit} bytes)`, {
    field: 'body',
    limitBytes: limit,
  });
}

/**
 * The body as text, refused with 413 once it passes `limit` bytes: a Content-Length over it is
 * refused before reading, and a chunked or lying body is counted while it streams and dropped
 * at the first chunk past the limit. Never holds more than `limit` bytes (plus one chunk).
 */
export async function readBodyText(req: Request, limit: number): Promise<string> {
  const declared = req.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) throw tooLarge(limit);
  if (req.body === null) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new HttpError(400, 'invalid_argument', 'body: not valid UTF-8', { field: 'body' });
  }
}

/** The JSON body; an empty one is `{}`. */
export async function readJsonBody(req: Request, limit: number): Promise<unknown> {
  const text = await readBodyText(req, limit);
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'invalid_argument', 'body: not valid JSON', { field: 'body' });
  }
}

const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * The path params Next decoded. Next decodes each segment with decodeURIComponent, which
 * rejects a byte sequence that is not UTF-8 (`%FF`) or encodes a lone surrogate; that, and a
 * lone surrogate handed in directly, is a 400 naming the segment, never a 500. Text that is
 * not well-formed would otherwise reach Redis as U+FFFD and name another key.
 */
export async function readParams(req: Request, params: Promise<Record<string, string | string[]>> | undefined): Promise<Record<string, string | string[]>> {
  let out: Record<string, string | string[]>;
  try {
    out = (await params) ?? {};
  } catch {
    const message = undecodablePath(new URL(req.url).pathname) ?? 'path: a segment is not valid percent-encoded UTF-8';
    throw new HttpError(400, 'invalid_argument', message, { field: 'path' });
  }
  for (const [name, value] of Object.entries(out)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v === 'string' && LONE_SURROGATE.test(v)) {
        throw new HttpError(400, 'invalid_argument', `${name}: not well-formed Unicode (a lone surrogate)`, { field: name });
      }
    }
  }
  return out;
}

/**
 * The refusal of a path with a segment that does not decode (`%FF`, an encoded lone
 * surrogate), or null. Next cannot match such a path to a route and answers it with a bare
 * 500 of its own, so the request interceptor (proxy.ts) refuses it first; route() does the
 * same for a caller that hands params over directly.
 */
export function undecodablePath(pathname: string): string | null {
  for (const segment of pathname.split('/')) {
    try {
      decodeURIComponent(segment);
    } catch {
      const shown = segment.length > 64 ? `${segment.slice(0, 64)}…` : segment;
      return `path: segment ${JSON.stringify(shown)} is not valid percent-encoded UTF-8`;
    }
  }
  return null;
}
