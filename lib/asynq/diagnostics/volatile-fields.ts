/**
 * Finds the fields of a JSON payload that look like they change on every enqueue (times,
 * nonces, request IDs) and writes the payload's canonical form with those values blanked, so
 * two payloads that differ only there compare equal.
 */

/** Key names that carry a per-enqueue value (compared case-insensitively). */
const VOLATILE_NAMES = new Set([
  'ts', 'timestamp', 'time', 'nonce', 'requestid', 'request_id', 'traceid', 'trace_id', 'spanid', 'span_id',
  'createdat', 'sentat', 'enqueuedat', 'datetime',
]);
/** ISO-8601 / RFC 3339 date-times (a date alone is usually data, not a stamp). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Epoch seconds and milliseconds between 2000-01-01 and 2100-01-01. */
const EPOCH_S = [946_684_800, 4_102_444_800] as const;
const EPOCH_MS = [EPOCH_S[0] * 1000, EPOCH_S[1] * 1000] as const;

/** `ts`, `createdAt`, `sent_at`, `updatedAt`, `requestId`: names of per-enqueue values. */
export function isVolatileName(name: string): boolean {
  if (VOLATILE_NAMES.has(name.toLowerCase())) return true;
  // snake_case *_at and camelCase *At (an upper-case A after a lower-case letter or digit).
  return /_at$/i.test(name) || /[a-z0-9]At$/.test(name);
}

/** A value that looks like a time stamp or a random ID, whatever its key is called. */
export function isVolatileValue(v: unknown): boolean {
  if (typeof v === 'string') return ISO_TIME.test(v) || UUID.test(v);
  if (typeof v === 'number' && Number.isInteger(v)) {
    return (v >= EPOCH_S[0] && v < EPOCH_S[1]) || (v >= EPOCH_MS[0] && v < EPOCH_MS[1]);
  }
  return false;
}

export interface CanonicalForm {
  /** The JSON with sorted keys and each volatile value replaced by a marker. */
  text: string;
  /** Dotted paths of the blanked values (`a.b`, `items.0.ts`), in the order they appear in `text`. */
  paths: string[];
  /** JSON text of each blanked value, parallel to `paths`. */
  values: string[];
}

const MARK = '"\u0000~"';

function walk(v: unknown, path: string, name: string | null, out: CanonicalForm): string {
  const primitive = v === null || typeof v !== 'object';
  if (primitive && path !== '' && ((name !== null && isVolatileName(name) && v !== null) || isVolatileValue(v))) {
    out.paths.push(path);
    out.values.push(JSON.stringify(v));
    return MARK;
  }
  if (Array.isArray(v)) {
    return `[${v.map((x, i) => walk(x, path === '' ? String(i) : `${path}.${i}`, null, out)).join(',')}]`;
  }
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v).sort();
    const parts = keys.map((key) => {
      const child = (v as Record<string, unknown>)[key];
      return `${JSON.stringify(key)}:${walk(child, path === '' ? key : `${path}.${key}`, key, out)}`;
    });
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * The canonical form of a JSON object or array payload; null when the payload is not JSON,
 * is a bare scalar, or has no volatile field (then equal payloads are exactly equal, and the
 * exact-duplicate grouping already covers them).
 */
export function canonicalize(payload: Buffer): CanonicalForm | null {
  let i = 0;
  while (i < payload.length && (payload[i] === 0x20 || payload[i] === 0x0a || payload[i] === 0x0d || payload[i] === 0x09)) i++;
  if (payload[i] !== 0x7b && payload[i] !== 0x5b) return null; // { or [
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload.toString('utf8'));
  } catch {
    return null;
  }
  const out: CanonicalForm = { text: '', paths: [], values: [] };
  out.text = walk(parsed, '', null, out);
  return out.paths.length === 0 ? null : out;
}
