/**
 * Reads the few TaskMessage fields triage needs straight from the protobuf bytes: a scan reads
 * every retry and archived task (and, for the not-found types, every pending and scheduled
 * one), and a full decode builds objects for fields it never looks at.
 *
 * Field numbers are asynq's (proto/asynq.proto): 1 type, 6 retried, 7 error_msg,
 * 11 last_failed_at. Unknown fields are skipped, as protobuf requires.
 */

export interface FailureFields {
  type: string;
  retried: number;
  /** The last error asynq stored; empty when none. */
  errorMsg: string;
  /** Unix seconds; 0 = never failed. */
  lastFailedAt: number;
}

/** A cursor over protobuf bytes; `bad` is set when a read runs past the end. */
class Reader {
  pos = 0;
  bad = false;
  constructor(readonly buf: Buffer) {}

  /** A varint as a Number; longer than 7 bytes (a negative int) reads as -1. */
  varint(): number {
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 10 && this.pos < this.buf.length; i++) {
      const b = this.buf[this.pos++]!;
      result += (b & 0x7f) * mul;
      if (b < 0x80) return i < 7 ? result : -1;
      mul *= 128;
    }
    this.bad = true;
    return 0;
  }

  /** The [start, end) of the next length-delimited field, or null when it overruns. */
  span(): [number, number] | null {
    const n = this.varint();
    if (this.bad || n < 0 || this.pos + n > this.buf.length) return null;
    const start = this.pos;
    this.pos += n;
    return [start, this.pos];
  }

  /** Skips a field of wire type `wire`; false when the type is unknown or it overruns. */
  skip(wire: number): boolean {
    if (wire === 0) this.varint();
    else if (wire === 2) return this.span() !== null;
    else if (wire === 1) this.pos += 8;
    else if (wire === 5) this.pos += 4;
    else return false;
    return !this.bad && this.pos <= this.buf.length;
  }
}

/** Type, retried, error and failure time of a msg; null when it is not a valid message. */
export function readFailureFields(msg: Buffer): FailureFields | null {
  const out: FailureFields = { type: '', retried: 0, errorMsg: '', lastFailedAt: 0 };
  const r = new Reader(msg);
  while (r.pos < msg.length) {
    const tag = r.varint();
    const field = Math.floor(tag / 8);
    const wire = tag % 8;
    if (r.bad || field === 0) return null;
    if (wire === 2 && (field === 1 || field === 7)) {
      const s = r.span();
      if (s === null) return null;
      if (field === 1) out.type = msg.toString('utf8', s[0], s[1]);
      else out.errorMsg = msg.toString('utf8', s[0], s[1]);
    } else if (wire === 0 && (field === 6 || field === 11)) {
      const n = r.varint();
      if (field === 6) out.retried = n;
      else out.lastFailedAt = n;
    } else if (!r.skip(wire)) {
      return null;
    }
  }
  return r.bad ? null : out;
}

/**
 * The task type of a msg, read up to its first `type` field: asynq (and our codec) write
 * fields in number order, so for their messages this stops after a few bytes and never walks
 * a large payload. Null when the bytes are not a message or have no type field.
 */
export function readTaskType(msg: Buffer): string | null {
  const r = new Reader(msg);
  while (r.pos < msg.length) {
    const tag = r.varint();
    const field = Math.floor(tag / 8);
    const wire = tag % 8;
    if (r.bad || field === 0) return null;
    if (field === 1 && wire === 2) {
      const s = r.span();
      return s === null ? null : msg.toString('utf8', s[0], s[1]);
    }
    if (!r.skip(wire)) return null;
  }
  // proto3 leaves an empty string out entirely: a valid message without field 1 has type "".
  return r.bad ? null : '';
}
