import 'server-only';
import { invalidArgument } from '@asynqlens/asynq';
import type { BytesEncoding } from '@/lib/contract/common';

/** asynq has no payload limit of its own; this one keeps a stray upload from filling Redis. */
export const MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;
/**
 * The request body limit of a route that carries one payload (enqueue, its pre-check, a
 * payload edit, a batch in total): the payload cap as base64 plus 64 KiB for the rest. A UTF-8
 * payload that JSON must escape heavily can pass it below the cap: send that one as base64.
 */
export const MAX_PAYLOAD_BODY_BYTES = Math.ceil(MAX_PAYLOAD_BYTES / 3) * 4 + 64 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Payload text from a request body → bytes. null stays null (Go's nil payload). */
export function decodePayload(field: string, text: string | null | undefined, encoding: BytesEncoding): Uint8Array | null {
  if (text === null || text === undefined) return null;
  let bytes: Buffer;
  if (encoding === 'base64') {
    const clean = text.replace(/\s+/g, '');
    if (clean.length % 4 !== 0 || !BASE64.test(clean)) throw invalidArgument('decodePayload', field, `${field}: not valid base64`);
    bytes = Buffer.from(clean, 'base64');
  } else {
    bytes = Buffer.from(text, 'utf8');
  }
  if (bytes.length > MAX_PAYLOAD_BYTES) {
    throw invalidArgument('decodePayload', field, `${field}: ${bytes.length} bytes is over the ${MAX_PAYLOAD_BYTES}-byte limit`);
  }
  return bytes;
}
