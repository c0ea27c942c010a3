/**
 * A minimal reader of the few TaskMessage fields the diagnostics need, straight from the
 * protobuf bytes. The duplicate scan reads a million messages; a full decode (every field,
 * headers map, objects) costs several times what this does, and a payload stays a view into
 * the reply buffer instead of a copy.
 *
 * Field numbers are asynq's (proto/asynq.proto): 1 type, 2 payload, 5 retry, 6 retried,
 * 10 unique_key, 11 last_failed_at.
 */

export interface TaskFields {
  /** UTF-8 bytes of the task type (a view, not a copy). */
  type: Buffer;
  /** Payload bytes (a view, not a copy); empty for both Go's nil and an empty payload. */
  payload: Buffer;
  /** MaxRetry. */
  retry: number;
  retried: number;
  uniqueKey: string;
  /** Unix seconds, 0 = never failed. */
  lastFailedAt: number;
}

const EMPTY = Buffer.alloc(0);

// The reader's position. Module state rather than a closure per call: the duplicate scan reads
// a million messages, and reading is synchronous, so calls never interleave.
let buf: Buffer = EMPTY;
let pos = 0;
let bad = false;

/**
 * The varint at `pos`, advancing it; sets `bad` when it runs past the end. Up to seven bytes
 * (49 bits) are summed as a Number; a longer one (a negative int32/int64 is ten bytes,
 * sign-extended) goes through BigInt and is read as a signed 64-bit value.
 */
function varint(): number {
  const start = pos;
  let result = 0;
  let mul = 1;
  for (let i = 0; i < 10 && pos < buf.length; i++) {
    const b = buf[pos++]!;
    result += (b & 0x7f) * mul;
    if (b < 0x80) return i < 7 ? result : signed64(start, pos);
    mul *= 128;
  }
  bad = true;
  return 0;
}

function signed64(start: number, end: number): number {
  let v = 0n;
  for (let i = end - 1; i >= start; i--) v = (v << 7n) | BigInt(buf[i]! & 0x7f);
  return Number(BigInt.asIntN(64, v));
}

/**
 * Reads the fields above; null when the bytes are not a well-formed protobuf message (a
 * truncated field, an unknown wire type). Unknown fields are skipped, as protobuf requires.
 */
export function readTaskFields(msg: Buffer): TaskFields | null {
  const out: TaskFields = { type: EMPTY, payload: EMPTY, retry: 0, retried: 0, uniqueKey: '', lastFailedAt: 0 };
  buf = msg;
  pos = 0;
  bad = false;
  try {
    while (pos < msg.length) {
      const tag = varint();
      const field = Math.floor(tag / 8);
      const wire = tag % 8;
      if (wire === 0) {
        const n = varint();
        if (field === 5) out.retry = n;
        else if (field === 6) out.retried = n;
        else if (field === 11) out.lastFailedAt = n;
      } else if (wire === 2) {
        const n = varint();
        if (bad || n < 0 || pos + n > msg.length) return null;
        if (field === 1) out.type = msg.subarray(pos, pos + n);
        else if (field === 2) out.payload = msg.subarray(pos, pos + n);
        else if (field === 10) out.uniqueKey = msg.toString('utf8', pos, pos + n);
        pos += n;
      } else if (wire === 1) {
        pos += 8;
      } else if (wire === 5) {
        pos += 4;
      } else {
        return null;
      }
      if (bad || pos > msg.length || field === 0) return null;
    }
    return out;
  } finally {
    buf = EMPTY; // do not keep the last reply alive
  }
}
