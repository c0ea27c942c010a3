/**
 * A hand-written protobuf encoder for asynq's TaskMessage, the one message written per task
 * enqueued, retried, archived or completed. protobuf-es's reflective toBinary (with the
 * create() and BigInt conversions it needs) took 8% of an enqueue's CPU; this writes the
 * same bytes in one pass over a buffer sized up front.
 *
 * The bytes are exactly protobuf-es's (and so protobuf-go's, field order aside for map
 * entries): ascending field numbers, proto3 defaults (0, "", empty bytes) omitted, int32 and
 * int64 as varints with negatives sign-extended to ten bytes, map entries as
 * `{1: key, 2: value}` each written even when empty. tests/unit/asynq/task-message-writer.test.ts
 * compares the two on random messages.
 */
import type { TaskMessage } from './types';

const encoder = new TextEncoder();

/**
 * Bytes of a varint holding `n`, a non-negative integer below 2^64. Exact past 2^53 too: an
 * integer double that large is a multiple of a power of two, so /128 and %128 stay exact.
 */
function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

/** Bytes of an int64/int32 field value: negatives take ten (two's complement, sign-extended). */
const intSize = (n: number): number => (n < 0 ? 10 : varintSize(n));

class Writer {
  readonly buf: Uint8Array;
  pos = 0;

  constructor(size: number) {
    this.buf = new Uint8Array(size);
  }

  varint(n: number): void {
    while (n >= 0x80) {
      this.buf[this.pos++] = (n % 128) | 0x80;
      n = Math.floor(n / 128);
    }
    this.buf[this.pos++] = n;
  }

  /** A negative integer as protobuf writes int64: the 64-bit two's complement varint. */
  negative(n: number): void {
    let v = BigInt.asUintN(64, BigInt(n));
    while (v >= 0x80n) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
  }

  int(n: number): void {
    if (n < 0) this.negative(n);
    else this.varint(n);
  }

  bytes(b: Uint8Array): void {
    this.varint(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }
}

/** Integers the field can hold (protobuf-es throws on the others too). */
function checkInt(field: string, n: number, bits: 32 | 64): void {
  const ok = Number.isInteger(n) && (bits === 32 ? n >= -0x80000000 && n <= 0x7fffffff : n >= -(2 ** 63) && n < 2 ** 63);
  if (!ok) throw new Error(`invalid int${bits} for TaskMessage.${field}: ${n}`);
}

// No closures below: this runs for every task written, and each closure made per call costs
// more than the field it writes (more still under tsx, which names every function it creates).

const utf8 = (s: string): Uint8Array | null => (s === '' ? null : encoder.encode(s));

/**
 * The UTF-8 bytes of the string last given, for fields that repeat from one message to the
 * next (a client writes the same type and queue over and over). The bytes are only read.
 */
class LastUtf8 {
  private text = '';
  private bytes: Uint8Array | null = null;

  of(s: string): Uint8Array | null {
    if (s !== this.text) {
      this.text = s;
      this.bytes = utf8(s);
    }
    return this.bytes;
  }
}

const lastType = new LastUtf8();
const lastQueue = new LastUtf8();

/** Bytes of a length-delimited field (tag, length, bytes); 0 when empty (omitted). */
const lenField = (b: Uint8Array | null): number => (b === null || b.length === 0 ? 0 : 1 + varintSize(b.length) + b.length);

/** Bytes of an integer field; 0 when the value is 0 (omitted). Throws when out of range. */
function intField(name: string, value: number, bits: 32 | 64): number {
  checkInt(name, value, bits);
  return value === 0 ? 0 : 1 + intSize(value);
}

function writeField(w: Writer, tag: number, b: Uint8Array | null): void {
  if (b === null || b.length === 0) return;
  w.buf[w.pos++] = tag;
  w.bytes(b);
}

function writeInt(w: Writer, tag: number, n: number): void {
  if (n === 0) return;
  w.buf[w.pos++] = tag;
  w.int(n);
}

interface HeaderEntry {
  k: Uint8Array;
  v: Uint8Array;
  /** Bytes of the map entry message. */
  entry: number;
}

function headerEntries(headers: Record<string, string>): HeaderEntry[] {
  const out: HeaderEntry[] = [];
  for (const key in headers) {
    if (!Object.prototype.hasOwnProperty.call(headers, key)) continue;
    const k = encoder.encode(key);
    const v = encoder.encode(headers[key]);
    out.push({ k, v, entry: 1 + varintSize(k.length) + k.length + 1 + varintSize(v.length) + v.length });
  }
  return out;
}

/** Encodes `msg` as asynq's TaskMessage protobuf, byte for byte what toBinary writes. */
export function writeTaskMessage(msg: TaskMessage): Uint8Array {
  const type = lastType.of(msg.type);
  const id = utf8(msg.id);
  const queue = lastQueue.of(msg.queue);
  const errorMsg = utf8(msg.errorMsg);
  const uniqueKey = utf8(msg.uniqueKey);
  const groupKey = utf8(msg.groupKey);
  const headers = headerEntries(msg.headers);

  let size = lenField(type) + lenField(msg.payload) + lenField(id) + lenField(queue) + lenField(errorMsg) + lenField(uniqueKey) + lenField(groupKey);
  size += intField('retry', msg.retry, 32) + intField('retried', msg.retried, 32) + intField('timeout', msg.timeout, 64) +
    intField('deadline', msg.deadline, 64) + intField('lastFailedAt', msg.lastFailedAt, 64) + intField('retention', msg.retention, 64) +
    intField('completedAt', msg.completedAt, 64);
  for (const h of headers) size += 1 + varintSize(h.entry) + h.entry;

  const w = new Writer(size);
  // Tags are (field << 3) | wire type: 2 for strings, bytes and map entries, 0 for varints.
  writeField(w, 0x0a, type);
  writeField(w, 0x12, msg.payload);
  writeField(w, 0x1a, id);
  writeField(w, 0x22, queue);
  writeInt(w, 0x28, msg.retry);
  writeInt(w, 0x30, msg.retried);
  writeField(w, 0x3a, errorMsg);
  writeInt(w, 0x40, msg.timeout);
  writeInt(w, 0x48, msg.deadline);
  writeField(w, 0x52, uniqueKey);
  writeInt(w, 0x58, msg.lastFailedAt);
  writeInt(w, 0x60, msg.retention);
  writeInt(w, 0x68, msg.completedAt);
  writeField(w, 0x72, groupKey);
  for (const h of headers) {
    w.buf[w.pos++] = 0x7a;
    w.varint(h.entry);
    w.buf[w.pos++] = 0x0a;
    w.bytes(h.k);
    w.buf[w.pos++] = 0x12;
    w.bytes(h.v);
  }
  if (w.pos !== size) throw new Error(`TaskMessage writer: wrote ${w.pos} bytes, sized ${size}`);
  return w.buf;
}
