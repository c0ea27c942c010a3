import 'server-only';
import { env } from '../config/env';
import { HttpError } from './errors';

/**
 * Refuses a mutation unless it plainly comes from this app's own pages (or from a non-browser
 * client such as curl, which sends neither Origin nor Sec-Fetch-Site). Browsers send Origin on
 * every cross-origin POST/PATCH/DELETE, and Sec-Fetch-Site on everything, so a page on another
 * site can never get a mutation through — whether by fetch or by a plain HTML form.
 */
export function assertSameSite(req: Request): void {
  const origin = req.headers.get('origin');
  if (origin !== null) {
    const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host') ?? new URL(req.url).host;
    let originHost = '';
    try {
      originHost = new URL(origin).host;
    } catch {
      // "null" (sandboxed frames, file://) is not a URL: treated as another site.
    }
    if (originHost !== host && !env().ASYNQLENS_ALLOWED_ORIGINS.includes(origin)) {
      throw new HttpError(403, 'forbidden', `cross-site request refused: Origin ${origin} is not ${host}`);
    }
    return;
  }
  const site = req.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') {
    throw new HttpError(403, 'forbidden', `cross-site request refused: Sec-Fetch-Site is ${site}`);
  }
}

/** Refuses any body that is not JSON (415): HTML forms can only send other types. */
export function assertJsonBody(req: Request): void {
  const type = req.headers.get('content-type');
  const length = req.headers.get('content-length');
  const hasBody = (length !== null && length !== '0') || req.headers.get('transfer-encoding') !== null;
  if (type === null ? hasBody : !/^application\/json\s*(;|$)/i.test(type)) {
    throw new HttpError(415, 'unsupported_media_type', 'request body must be application/json');
  }
}

/** 403 read_only for every mutation while the server runs read-only. */
export function assertWritable(): void {
  if (env().ASYNQLENS_READ_ONLY) {
    throw new HttpError(403, 'read_only', 'asynqlens is running read-only (ASYNQLENS_READ_ONLY): mutations are disabled');
  }
}
