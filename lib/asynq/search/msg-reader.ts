/**
 * Reads the TaskMessage fields a search filters on straight from the protobuf bytes, as views
 * into the Redis reply: a search reads up to a million msgs, and a full decode (objects for
 * every field, a copied payload, a headers map) costs several times this.
 *
 * Field numbers are asynq's (proto/asynq.proto): 1 type, 2 payload, 6 retried, 7 error_msg,
 * 11 last_failed_at, 13 completed_at, 15 headers (map entries: 1 key, 2 value).
 */

export interface SearchFields {
  /** UTF-8 bytes of the task type. */
  type: Buffer;
  /** Payload bytes; empty for both Go's nil and an empty payload. */
  payload: Buffer;
  retried: number;
  /** UTF-8 bytes of the last error, empty when none. */
  errorMsg: Buffer;
  /** Unix seconds, 0 = never failed. */
  lastFailedAt: number;
  /** Unix seconds, 0 = not completed. */
  completedAt: number;
  /** The raw bytes of each headers map entry; read with {@link headerValue} when needed. */
  headerEntries: Buffer[];
}

const EMPTY = Buffer.alloc(0);

/** A cursor over protobuf bytes; `bad` is set when a read runs past the end. */
class Reader {
  pos = 0;
  bad = false;
  constructor(readonly buf: Buffer) {}

  /** A non-negative varint; longer than 7 bytes (negative int64) reads as -1. */
  varint(): number {
    const buf = this.buf;
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 10 && this.pos < buf.length; i++) {
      const b = buf[this.pos++]!;
      result += (b & 0x7f) * mul;
      if (b < 0x80) return i < 7 ? result : -1;
      mul *= 128;
    }
    this.bad = true;
    return 0;
  }

  /** The next length-delimited field's bytes (a view), or null when it overruns. */
  bytes(): Buffer | null {
    const n = this.varint();
    if (this.bad || n < 0 || this.pos + n > this.buf.length) return null;
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}

/** Skips a field of wire type `wire`; false when the type is unknown or the bytes overrun. */
function skip(r: Reader, wire: number): boolean {
  if (wire === 0) r.varint();
  else if (wire === 2) return r.bytes() !== null;
  else if (wire === 1) r.pos += 8;
  else if (wire === 5) r.pos += 4;
  else return false;
  return !r.bad && r.pos <= r.buf.length;
}

/**
 * The search fields of a msg; null when the bytes are not a well-formed protobuf message.
 * Unknown fields are skipped, as protobuf requires.
 */
export function readSearchFields(msg: Buffer): SearchFields | null {
  const out: SearchFields = { type: EMPTY, payload: EMPTY, retried: 0, errorMsg: EMPTY, lastFailedAt: 0, completedAt: 0, headerEntries: [] };
  const r = new Reader(msg);
  while (r.pos < msg.length) {
    const tag = r.varint();
    const field = Math.floor(tag / 8);
    const wire = tag % 8;
    if (r.bad || field === 0) return null;
    if (wire === 2 && (field === 1 || field === 2 || field === 7 || field === 15)) {
      const b = r.bytes();
      if (b === null) return null;
      if (field === 1) out.type = b;
      else if (field === 2) out.payload = b;
      else if (field === 7) out.errorMsg = b;
      else out.headerEntries.push(b);
    } else if (wire === 0 && (field === 6 || field === 11 || field === 13)) {
      const n = r.varint();
      if (field === 6) out.retried = n;
      else if (field === 11) out.lastFailedAt = n;
      else out.completedAt = n;
    } else if (!skip(r, wire)) {
      return null;
    }
  }
  return r.bad ? null : out;
}

/** The value of header `key` (UTF-8 bytes), or null when the msg has no such header. */
export function headerValue(entries: readonly Buffer[], key: Buffer): Buffer | null {
  // Protobuf map semantics: the last entry for a key wins.
  let found: Buffer | null = null;
  for (const entry of entries) {
    const r = new Reader(entry);
    let k: Buffer = EMPTY;
    let v: Buffer = EMPTY;
    while (r.pos < entry.length) {
      const tag = r.varint();
      const wire = tag % 8;
      if (wire === 2 && (tag >> 3 === 1 || tag >> 3 === 2)) {
        const b = r.bytes();
        if (b === null) break;
        if (tag >> 3 === 1) k = b;
        else v = b;
      } else if (r.bad || !skip(r, wire)) {
        break;
      }
    }
    if (k.equals(key)) found = v;
  }
  return found;
}
