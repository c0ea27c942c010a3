/**
 * Readers for raw Redis replies (Buffers, integers, nil) that check their shape, so a reply
 * that is not what the script promised fails loudly here instead of deep in a view.
 */

export type Reply = Buffer | number | null | Reply[];

export function asArray(r: unknown, what: string): unknown[] {
  if (!Array.isArray(r)) throw new Error(`unexpected Redis reply for ${what}: not an array`);
  return r;
}

/** Bulk string → UTF-8 text (for IDs, state names, keys); nil → null. */
export function asText(r: unknown): string | null {
  if (r === null || r === undefined) return null;
  if (Buffer.isBuffer(r)) return r.toString('utf8');
  if (typeof r === 'string') return r;
  if (typeof r === 'number') return String(r);
  throw new Error('unexpected Redis reply: not a string');
}

/** Bulk string → bytes, untouched; nil → null. */
export function asBytes(r: unknown): Buffer | null {
  if (r === null || r === undefined) return null;
  if (Buffer.isBuffer(r)) return r;
  if (typeof r === 'string') return Buffer.from(r, 'utf8');
  throw new Error('unexpected Redis reply: not bytes');
}

/** Integer reply, or a bulk string holding a decimal; nil → null. */
export function asNumber(r: unknown): number | null {
  if (r === null || r === undefined) return null;
  if (typeof r === 'number') return r;
  const t = asText(r);
  if (t === null) return null;
  const n = Number(t);
  if (!Number.isFinite(n)) throw new Error(`unexpected Redis reply: ${JSON.stringify(t)} is not a number`);
  return n;
}
