/**
 * A one-pass reader of asynq's TaskMessage for the scans that read every msg of a queue
 * (search, the duplicate and lock diagnostics, failure triage) and, through codec.ts'
 * decodeTaskMessage, for every page of tasks. It walks the protobuf bytes
 * once and keeps where each field lies; a field then costs nothing until it is asked for, and
 * comes back as a view into the Redis reply (no copy) or a string. codec.ts's full decode
 * builds objects for every field and copies the payload: several times this per msg.
 *
 * It accepts what asynq's Go decoder (protobuf-go) accepts, except that strings are not
 * checked for valid UTF-8 (that would cost a pass over every type and error):
 * - unknown fields are skipped, and so is a known field sent with another wire type
 *   (protobuf-go keeps it as an unknown field, so asynq's own workers never see it);
 * - when a field repeats, the last one wins; for headers, the last entry of a key;
 * - retry and retried (int32) are the low 32 bits of their varint, signed, as Go's int32(v);
 *   last_failed_at and completed_at (int64) are read in full and returned as the nearest
 *   Number, exactly what codec.ts's Number(bigint) gives.
 * Malformed, and read as null (never thrown): a truncated varint or one over 64 bits, field
 * number 0 or above 2^29-1, a length or fixed-size value past the end, wire types 3/4 (groups,
 * which proto3 has no way to declare) and 6/7, and any of these inside a headers entry.
 *
 * What asynq never writes is noted (`unusual`): a known field sent with another wire type
 * (skipped here) or a string field sent twice (the last kept here, where protobuf-es checks
 * every one as UTF-8), so that codec.ts can leave such a msg to protobuf-es, whose reading of
 * it the console has always shown.
 *
 * Field numbers (proto/asynq.proto): 1 type, 2 payload, 3 id, 4 queue, 5 retry, 6 retried,
 * 7 error_msg, 8 timeout, 9 deadline, 10 unique_key, 11 last_failed_at, 12 retention,
 * 13 completed_at, 14 group_key, 15 headers (entries: 1 key, 2 value).
 */

/** Where each field of one msg lies; read with {@link readTaskMsg}. Absent fields are empty / 0. */
export class TaskMsgView {
  // Byte spans [start, end) of the length-delimited fields kept.
  typeStart = 0; typeEnd = 0;
  payloadStart = 0; payloadEnd = 0;
  idStart = 0; idEnd = 0;
  queueStart = 0; queueEnd = 0;
  errorStart = 0; errorEnd = 0;
  uniqueKeyStart = 0; uniqueKeyEnd = 0;
  groupKeyStart = 0; groupKeyEnd = 0;
  /** Whether the payload field was present (protobuf-es gives an absent one as a new empty array). */
  hasPayload = false;
  /** MaxRetry. */
  retry = 0;
  retried = 0;
  /** Seconds; 0 = none. */
  timeout = 0;
  /** Unix seconds; 0 = none. */
  deadline = 0;
  /** Unix seconds; 0 = never failed. */
  lastFailedAt = 0;
  /** Seconds. */
  retention = 0;
  /** Unix seconds; 0 = not completed. */
  completedAt = 0;
  /**
   * A known field (or a headers entry's key or value) came with a wire type other than its
   * own, or a string field (or an entry's key or value) more than once.
   */
  unusual = false;
  /** Key start, key end, value start, value end of each headers entry, in wire order; null when none. */
  headerSpans: number[] | null = null;

  constructor(readonly msg: Buffer) {}

  /** UTF-8 bytes of the task type (a view). */
  get type(): Buffer {
    return this.msg.subarray(this.typeStart, this.typeEnd);
  }

  get typeText(): string {
    return this.msg.toString('utf8', this.typeStart, this.typeEnd);
  }

  /** Payload bytes (a view); empty for both Go's nil and an empty payload. */
  get payload(): Buffer {
    return this.msg.subarray(this.payloadStart, this.payloadEnd);
  }

  /** UTF-8 bytes of the last error (a view); empty when none. */
  get errorMsg(): Buffer {
    return this.msg.subarray(this.errorStart, this.errorEnd);
  }

  get errorText(): string {
    return this.msg.toString('utf8', this.errorStart, this.errorEnd);
  }

  /** The uniqueness-lock key; empty when the task is not unique. */
  get uniqueKeyText(): string {
    return this.msg.toString('utf8', this.uniqueKeyStart, this.uniqueKeyEnd);
  }

  /** The value of header `key` (a view), or null when the msg has no such header. */
  header(key: Buffer): Buffer | null {
    const spans = this.headerSpans;
    if (spans === null) return null;
    const msg = this.msg;
    // Protobuf map semantics: the last entry for a key wins, so search from the end.
    for (let i = spans.length - 4; i >= 0; i -= 4) {
      const ks = spans[i]!;
      const ke = spans[i + 1]!;
      if (ke - ks === key.length && msg.compare(key, 0, key.length, ks, ke) === 0) return msg.subarray(spans[i + 2], spans[i + 3]);
    }
    return null;
  }
}

const EMPTY = Buffer.alloc(0);
/** The largest tag with a valid field number (2^29-1) and any wire type. */
const MAX_TAG = 2 ** 32 - 1;

// The cursor. Module state rather than an object per call: a scan reads a million msgs, and
// reading is synchronous, so calls never interleave.
let buf: Buffer = EMPTY;
let pos = 0;
/** What the last failed read found, and at which byte (for {@link taskMsgProblem}). */
let problem = '';
let problemAt = 0;
/** Where the field being read starts (its tag). */
let tagAt = 0;

function fail(what: string, at: number): -1 {
  problem = what;
  problemAt = at;
  return -1;
}

function refuse(what: string, at: number): false {
  fail(what, at);
  return false;
}

/**
 * The unsigned varint at `pos` (before `end`), advancing `pos`; -1 when malformed. Exact up to
 * 7 bytes (49 bits); longer ones (large or negative numbers) are re-read by {@link int32} and
 * {@link int64}, and as lengths or tags they are out of range whatever their exact value.
 */
function varint(end: number): number {
  if (pos < end) {
    const b = buf[pos]!;
    if (b < 0x80) {
      pos++;
      return b;
    }
  }
  const start = pos;
  let result = 0;
  let mul = 1;
  for (let i = 0; i < 10; i++) {
    if (pos >= end) return fail('truncated varint', start);
    const b = buf[pos++]!;
    // The tenth byte holds bit 63 only (protobuf-go rejects anything more).
    if (i === 9 && b > 1) break;
    result += (b & 0x7f) * mul;
    if (b < 0x80) return result;
    mul *= 128;
  }
  return fail('varint longer than 64 bits', start);
}

/** The varint in [start, pos) as a signed `bits`-bit integer, through BigInt. */
function signedAt(start: number, bits: 32 | 64): number {
  let v = 0n;
  for (let i = pos - 1; i >= start; i--) v = (v << 7n) | BigInt(buf[i]! & 0x7f);
  return Number(BigInt.asIntN(bits, v));
}

/** An int32 field's value from its varint `n` read from `start`: Go's int32(v). */
const int32 = (n: number, start: number): number => (pos - start <= 7 ? n | 0 : signedAt(start, 32));

/** An int64 field's value from its varint `n` read from `start`, as the nearest Number. */
const int64 = (n: number, start: number): number => (pos - start <= 7 ? n : signedAt(start, 64));

/** The tag at `pos`, advancing it; -1 when malformed. */
function tag(end: number): number {
  tagAt = pos;
  const t = varint(end);
  if (t >= 0 && (t < 8 || t > MAX_TAG)) return fail('field number 0 or above 2^29-1', tagAt);
  return t;
}

/** Reads a length-delimited field's length and moves `pos` past its bytes; their start, or -1. */
function span(end: number): number {
  const at = pos;
  const n = varint(end);
  if (n < 0) return -1;
  if (n > end - pos) return fail(`length ${n} past the end`, at);
  const start = pos;
  pos += n;
  return start;
}

/** Skips a field of wire type `wire`; false when it is malformed. */
function skip(wire: number, end: number): boolean {
  const at = pos;
  switch (wire) {
    case 0:
      return varint(end) >= 0;
    case 1:
    case 5: {
      const n = wire === 1 ? 8 : 4;
      if (n > end - pos) return refuse(`${n}-byte value past the end`, at);
      pos += n;
      return true;
    }
    case 2:
      return span(end) >= 0;
    default:
      return refuse(`wire type ${wire} (${wire === 3 || wire === 4 ? 'a group: proto3 has none' : 'unknown'})`, tagAt);
  }
}

/** Reads the headers entry [start, end) into `v.headerSpans`; false when malformed. */
function headerEntry(v: TaskMsgView, start: number, end: number): boolean {
  // A missing key or value is the empty string, as in protobuf-go.
  let ks = start, ke = start, vs = start, ve = start;
  pos = start;
  while (pos < end) {
    const t = tag(end);
    if (t < 0) return false;
    const field = t >>> 3;
    if ((t & 7) !== 2 && (field === 1 || field === 2)) v.unusual = true;
    if ((t & 7) === 2 && (field === 1 || field === 2)) {
      if (field === 1 ? ke > start : ve > start) v.unusual = true;
      const s = span(end);
      if (s < 0) return false;
      if (field === 1) {
        ks = s;
        ke = pos;
      } else {
        vs = s;
        ve = pos;
      }
    } else if (!skip(t & 7, end)) {
      return false;
    }
  }
  (v.headerSpans ??= []).push(ks, ke, vs, ve);
  return true;
}

/** Bits of the string fields: type, id, queue, error_msg, unique_key, group_key. */
const STRING_FIELDS = (1 << 1) | (1 << 3) | (1 << 4) | (1 << 7) | (1 << 10) | (1 << 14);

function walk(v: TaskMsgView): boolean {
  const end = buf.length;
  /** Bits of the string fields met so far. */
  let seen = 0;
  while (pos < end) {
    const t = tag(end);
    if (t < 0) return false;
    const field = t >>> 3;
    const wire = t & 7;
    if (wire === 2) {
      const s = span(end);
      if (s < 0) return false;
      // The field table of the module comment: where each kept field lies.
      if (field === 1) { v.typeStart = s; v.typeEnd = pos; }
      else if (field === 2) { v.payloadStart = s; v.payloadEnd = pos; v.hasPayload = true; }
      else if (field === 3) { v.idStart = s; v.idEnd = pos; }
      else if (field === 4) { v.queueStart = s; v.queueEnd = pos; }
      else if (field === 7) { v.errorStart = s; v.errorEnd = pos; }
      else if (field === 10) { v.uniqueKeyStart = s; v.uniqueKeyEnd = pos; }
      else if (field === 14) { v.groupKeyStart = s; v.groupKeyEnd = pos; }
      else if (field === 15) { if (!headerEntry(v, s, pos)) return false; }
      else if (field >= 5 && field <= 13) v.unusual = true;
      const bit = field < 15 ? STRING_FIELDS & (1 << field) : 0;
      if (seen & bit) v.unusual = true;
      seen |= bit;
    } else if (wire === 0) {
      const s = pos;
      const n = varint(end);
      if (n < 0) return false;
      if (field === 5) v.retry = int32(n, s);
      else if (field === 6) v.retried = int32(n, s);
      else if (field === 8) v.timeout = int64(n, s);
      else if (field === 9) v.deadline = int64(n, s);
      else if (field === 11) v.lastFailedAt = int64(n, s);
      else if (field === 12) v.retention = int64(n, s);
      else if (field === 13) v.completedAt = int64(n, s);
      else if (field >= 1 && field <= 15) v.unusual = true;
    } else {
      if (field >= 1 && field <= 15) v.unusual = true;
      if (!skip(wire, end)) return false;
    }
  }
  return true;
}

/** The fields of a task hash's msg; null when the bytes are not a well-formed TaskMessage. */
export function readTaskMsg(msg: Buffer): TaskMsgView | null {
  const v = new TaskMsgView(msg);
  buf = msg;
  pos = 0;
  const ok = walk(v);
  buf = EMPTY; // do not keep the last reply alive
  return ok ? v : null;
}

/** Why {@link readTaskMsg} refuses `msg`, naming the rule and the byte; null when it does not. */
export function taskMsgProblem(msg: Buffer): string | null {
  if (readTaskMsg(msg) !== null) return null;
  return `not a valid TaskMessage: ${problem} at byte ${problemAt} of ${msg.length}`;
}
