/**
 * `payload.<path>=<value>` conditions on JSON payloads. Values are compared as JSON scalars,
 * the way a person types them into a URL: "42" matches 42 and "42", "true" matches true and
 * "true", "null" matches null. A path step into an array of objects matches when any element
 * does (`items.sku=A1`), and so does a final array value (`tags=urgent`).
 */
import type { JsonFieldCondition } from './filter';

/** JSON's number grammar: only such text can equal a JSON number. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const BACKSLASH = 0x5c;

export interface CompiledJsonField {
  path: readonly string[];
  value: string;
  numeric: number | null;
  /** `"<last key>"` as bytes, which an unescaped payload must contain to have that key. */
  keyBytes: Buffer | null;
  /**
   * Bytes an unescaped payload must contain to hold the value: the value's text for a string,
   * the number's shortest form (`42`) for a number, unless written otherwise (see below).
   */
  valueBytes: Buffer | null;
}

export function compileJsonFields(conds: readonly JsonFieldCondition[]): CompiledJsonField[] {
  return conds.map(({ path, value }) => {
    const lastKey = [...path].reverse().find((s) => !/^\d+$/.test(s));
    const numeric = JSON_NUMBER.test(value) ? Number(value) : null;
    // Below 1e21 a number's shortest form is plain digits, which a string equal to the value
    // also contains (or the value's own text is used when the two differ, e.g. "42.0").
    const shortest = numeric !== null && Math.abs(numeric) < 1e21 ? String(numeric) : null;
    return {
      path,
      value,
      numeric,
      keyBytes: lastKey === undefined ? null : Buffer.from(JSON.stringify(lastKey)),
      valueBytes: numeric === null ? Buffer.from(value) : shortest !== null && value.includes(shortest) ? Buffer.from(shortest) : null,
    };
  });
}

function scalarEquals(v: unknown, c: CompiledJsonField): boolean {
  if (typeof v === 'string') return v === c.value;
  if (typeof v === 'number') return c.numeric !== null && v === c.numeric;
  if (typeof v === 'boolean') return c.value === (v ? 'true' : 'false');
  if (v === null) return c.value === 'null';
  return false;
}

function matchAt(node: unknown, path: readonly string[], i: number, c: CompiledJsonField): boolean {
  if (i === path.length) return Array.isArray(node) ? node.some((e) => scalarEquals(e, c)) : scalarEquals(node, c);
  const step = path[i]!;
  if (Array.isArray(node)) {
    if (/^\d+$/.test(step)) return matchAt(node[Number(step)], path, i + 1, c);
    return node.some((e) => matchAt(e, path, i, c));
  }
  if (node !== null && typeof node === 'object' && Object.hasOwn(node, step)) {
    return matchAt((node as Record<string, unknown>)[step], path, i + 1, c);
  }
  return false;
}

/**
 * A digit followed by `.`, `e` or `E`: the only way a JSON number can be written other than
 * its shortest form (JSON allows no leading zeros or `+`), e.g. `42.0` or `4.2e1` for 42.
 */
function hasLongNumber(p: Buffer): boolean {
  for (let i = 0; i < p.length - 1; i++) {
    const b = p[i]!;
    if (b >= 0x30 && b <= 0x39) {
      const c = p[i + 1]!;
      if (c === 0x2e || c === 0x65 || c === 0x45) return true;
    }
  }
  return false;
}

/** First non-whitespace byte is `{` or `[`: anything else is not a JSON document worth parsing. */
function looksLikeJson(p: Buffer): boolean {
  for (let i = 0; i < p.length; i++) {
    const b = p[i]!;
    if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) continue;
    return b === 0x7b || b === 0x5b;
  }
  return false;
}

/**
 * True when the payload is a JSON document satisfying every condition. Why the byte checks
 * first: parsing costs ~1 µs per 200-byte payload, a scan sees a million of them, and most
 * lack the key or value. They are only trusted when the payload has no backslash, since an
 * escape (`\u0069d`) could spell a key or value without its literal bytes.
 */
export function jsonFieldsMatch(payload: Buffer, fields: readonly CompiledJsonField[]): boolean {
  if (fields.length === 0) return true;
  if (!looksLikeJson(payload)) return false;
  if (payload.indexOf(BACKSLASH) === -1) {
    let longNumber: boolean | undefined;
    for (const f of fields) {
      if (f.keyBytes && payload.indexOf(f.keyBytes) === -1) return false;
      if (f.valueBytes && payload.indexOf(f.valueBytes) === -1) {
        if (f.numeric === null) return false;
        longNumber ??= hasLongNumber(payload);
        if (!longNumber) return false;
      }
    }
  }
  let doc: unknown;
  try {
    doc = JSON.parse(payload.toString('utf8'));
  } catch {
    return false;
  }
  return fields.every((f) => matchAt(doc, f.path, 0, f));
}
