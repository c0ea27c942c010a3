/**
 * `payload.<path>=<value>` conditions on JSON payloads. Values are compared as JSON scalars,
 * the way a person types them into a URL: "42" matches 42 and "42", "true" matches true and
 * "true", "null" matches null. A path step into an array of objects matches when any element
 * does (`items.sku=A1`), and so does a final array value (`tags=urgent`). An order (`>`, `>=`,
 * `<`, `<=`) compares numbers with numbers and numeric strings, or ISO times with ISO time
 * strings; a negated condition holds exactly when the plain one does not.
 */
import { invalidArgument } from '../errors';
import type { JsonFieldCondition, JsonFieldOp } from './filter';

/** JSON's number grammar: only such text can equal a JSON number. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const BACKSLASH = 0x5c;

/**
 * An ISO date or time as a search query writes it: `2026-01-31`, `2026-01-31T10:00`,
 * `2026-01-31T10:00:00.5Z`, `2026-01-31 10:00:00+02:00`. Without a zone it is UTC.
 */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Milliseconds since the epoch of an ISO date or time, or null for other text. */
export function isoTimeValue(text: string): number | null {
  const m = ISO_TIME.exec(text);
  if (!m) return null;
  const t = Date.parse(text.length === 10 || m[1] !== undefined ? text.replace(' ', 'T') : `${text.replace(' ', 'T')}Z`);
  return Number.isNaN(t) ? null : t;
}

/** What an order compares with: a number, or an ISO time (ms). */
export function orderBound(value: string): { kind: 'number' | 'time'; at: number } | null {
  if (JSON_NUMBER.test(value)) return { kind: 'number', at: Number(value) };
  const t = isoTimeValue(value);
  return t === null ? null : { kind: 'time', at: t };
}

export interface CompiledJsonField {
  path: readonly string[];
  value: string;
  op: JsonFieldOp;
  negate: boolean;
  /** For an order: the bound. */
  bound: { kind: 'number' | 'time'; at: number } | null;
  numeric: number | null;
  /** `"<last key>"` as bytes, which an unescaped payload must contain to have that key. */
  keyBytes: Buffer | null;
  /**
   * Bytes an unescaped payload must contain to hold the value: the value's text for a string,
   * the number's shortest form (`42`) for a number, unless written otherwise (see below).
   */
  valueBytes: Buffer | null;
}

/** Throws invalid_argument for an order whose value is neither a number nor an ISO time. */
export function compileJsonFields(conds: readonly JsonFieldCondition[]): CompiledJsonField[] {
  return conds.map(({ path, value, op = '=', negate = false }) => {
    const bound = op === '=' ? null : orderBound(value);
    if (op !== '=' && bound === null) {
      throw invalidArgument('searchTasks', 'payloadFields', `${path.join('.')}${op}${value}: an order needs a number or an ISO time`);
    }
    const lastKey = [...path].reverse().find((s) => !/^\d+$/.test(s));
    const numeric = JSON_NUMBER.test(value) ? Number(value) : null;
    // Below 1e21 a number's shortest form is plain digits, which a string equal to the value
    // also contains (or the value's own text is used when the two differ, e.g. "42.0").
    const shortest = numeric !== null && Math.abs(numeric) < 1e21 ? String(numeric) : null;
    return {
      path,
      value,
      op,
      negate,
      bound,
      numeric,
      keyBytes: lastKey === undefined ? null : Buffer.from(JSON.stringify(lastKey)),
      // An order's value need not appear in the payload: only the key is a pre-check.
      valueBytes: op !== '=' ? null : numeric === null ? Buffer.from(value) : shortest !== null && value.includes(shortest) ? Buffer.from(shortest) : null,
    };
  });
}

function ordered(x: number, c: CompiledJsonField): boolean {
  const at = c.bound!.at;
  return c.op === '>' ? x > at : c.op === '>=' ? x >= at : c.op === '<' ? x < at : x <= at;
}

/** An order: numbers and numeric strings against a number, ISO time strings against a time. */
function scalarOrdered(v: unknown, c: CompiledJsonField): boolean {
  if (c.bound!.kind === 'number') {
    if (typeof v === 'number') return ordered(v, c);
    return typeof v === 'string' && JSON_NUMBER.test(v) && ordered(Number(v), c);
  }
  if (typeof v !== 'string') return false;
  const t = isoTimeValue(v);
  return t !== null && ordered(t, c);
}

function scalarEquals(v: unknown, c: CompiledJsonField): boolean {
  if (c.op !== '=') return scalarOrdered(v, c);
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
 * True when the payload satisfies every condition: a JSON document for each plain one, and
 * no match (or no JSON at all) for each negated one. Why the byte checks first: parsing costs
 * ~1 µs per 200-byte payload, a scan sees a million of them, and most lack the key or value.
 * A plain condition that fails them fails the payload; a negated one that fails them holds
 * without a parse. They are only trusted when the payload has no backslash, since an escape
 * (`\u0069d`) could spell a key or value without its literal bytes.
 */
export function jsonFieldsMatch(payload: Buffer, fields: readonly CompiledJsonField[]): boolean {
  if (fields.length === 0) return true;
  if (!looksLikeJson(payload)) return fields.every((f) => f.negate);
  let left: readonly CompiledJsonField[] = fields;
  if (payload.indexOf(BACKSLASH) === -1) {
    let longNumber: boolean | undefined;
    const cannotMatch = (f: CompiledJsonField): boolean => {
      if (f.keyBytes && payload.indexOf(f.keyBytes) === -1) return true;
      if (!f.valueBytes || payload.indexOf(f.valueBytes) !== -1) return false;
      if (f.numeric === null) return true;
      longNumber ??= hasLongNumber(payload);
      return !longNumber;
    };
    const possible: CompiledJsonField[] = [];
    for (const f of fields) {
      const impossible = cannotMatch(f);
      if (impossible && !f.negate) return false;
      if (!impossible) possible.push(f);
    }
    if (possible.length === 0) return true;
    left = possible;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(payload.toString('utf8'));
  } catch {
    return left.every((f) => f.negate);
  }
  return left.every((f) => matchAt(doc, f.path, 0, f) !== f.negate);
}
