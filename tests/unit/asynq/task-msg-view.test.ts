/**
 * The one-pass TaskMessage reader against protobuf-es's full decode (codec.ts's
 * decodeTaskMessage reads through this reader, protobuf-es only where it must): every field
 * on messages the codec wrote, then malformed bytes, which must read as null with a reason,
 * never throw and never hang.
 */
import { describe, expect, it } from 'vitest';
import { decodeWithProtobufEs as decodeTaskMessage, encodeTaskMessage } from '@/lib/asynq/codec';
import { readTaskMsg, taskMsgProblem, type TaskMsgView } from '@/lib/asynq/task-msg-view';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import type { TaskMessage } from '@/lib/asynq/types';

/** What the view says, in the codec's terms (headers looked up by each key the codec found). */
function asDecoded(v: TaskMsgView, keys: string[]) {
  return {
    type: v.typeText,
    typeBytes: v.type.toString(),
    payload: [...v.payload],
    retry: v.retry,
    retried: v.retried,
    errorMsg: v.errorText,
    errorBytes: v.errorMsg.toString(),
    uniqueKey: v.uniqueKeyText,
    lastFailedAt: v.lastFailedAt,
    completedAt: v.completedAt,
    headers: Object.fromEntries(keys.map((k) => [k, v.header(Buffer.from(k))?.toString() ?? null])),
  };
}

function fromCodec(m: TaskMessage) {
  return {
    type: m.type,
    typeBytes: m.type,
    payload: [...m.payload],
    retry: m.retry,
    retried: m.retried,
    errorMsg: m.errorMsg,
    errorBytes: m.errorMsg,
    uniqueKey: m.uniqueKey,
    lastFailedAt: m.lastFailedAt,
    completedAt: m.completedAt,
    headers: m.headers,
  };
}

/** Reads `bytes` both ways and expects the same fields. */
function expectSameAsCodec(bytes: Buffer): void {
  const full = decodeTaskMessage(bytes);
  const v = readTaskMsg(bytes);
  expect(v, taskMsgProblem(bytes) ?? '').not.toBeNull();
  expect(asDecoded(v!, Object.keys(full.headers))).toEqual(fromCodec(full));
}

const encode = (over: Partial<TaskMessage> & { type: string }) => Buffer.from(encodeTaskMessage(newTaskMessage(over)));

describe('readTaskMsg on messages the codec wrote', () => {
  it.each<[string, Partial<TaskMessage> & { type: string }]>([
    ['only defaults (empty type, no payload)', { type: '', retry: 0, timeout: 0, id: '', queue: '' }],
    ['a plain pending task', { type: 'email:welcome', payload: Buffer.from('{"to":"a@b.c"}') }],
    ['every field the scans read', {
      type: 'report:new', payload: Buffer.from([0, 1, 2, 255]), retry: 7, retried: 3, errorMsg: 'timeout after 2.5s',
      uniqueKey: 'asynq:{q}:unique:report:new:abc', lastFailedAt: 1_800_000_000, completedAt: 1_800_000_123, groupKey: 'g',
      deadline: 1_800_000_500, retention: 3600, headers: { tenant: 'acme', trace: 'x' },
    }],
    ['unicode everywhere', {
      type: 'письмо:отправить 😀', errorMsg: 'ünïcödé\u0000\u2028 error', uniqueKey: 'asynq:{ç}:unique:😀',
      headers: { 'ключ': 'значение 😀', '': 'empty key', 'empty value': '', 'x-long': 'v'.repeat(300) },
    }],
    ['negative numbers (ten-byte varints) and Go\'s zero time', { type: 't', retry: -1, retried: -5, lastFailedAt: -62_135_596_800, completedAt: -1 }],
    ['int32 extremes', { type: 't', retry: 2_147_483_647, retried: -2_147_483_648 }],
    ['int64 past 2^53 (read in full, then the nearest Number)', { type: 't', lastFailedAt: 2 ** 62, completedAt: 2 ** 53 + 2 }],
    ['int64 at the 7/8-byte varint boundary', { type: 't', lastFailedAt: 2 ** 49 - 1, completedAt: 2 ** 49 }],
    ['a 100 kB payload (three-byte length)', { type: 'big', payload: Buffer.alloc(100_000, 7), retried: 1 }],
  ])('%s', (_name, over) => {
    expectSameAsCodec(encode(over));
  });

  it('agrees on 500 random messages', () => {
    let seed = 12345;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const text = (max: number) => Array.from({ length: rnd(max) }, () => String.fromCodePoint([rnd(128), 0xe9 + rnd(50), 0x1f600 + rnd(50)][rnd(3)]!)).join('');
    const number = () => [0, rnd(1000), -rnd(1000), rnd(2 ** 31) * rnd(2 ** 22), -(rnd(2 ** 31) * rnd(2 ** 22))][rnd(5)]!;
    for (let i = 0; i < 500; i++) {
      const headers: Record<string, string> = {};
      for (let h = rnd(4); h > 0; h--) headers[text(8)] = text(20);
      expectSameAsCodec(encode({
        type: text(30), payload: Buffer.from(text(300)), retry: number() | 0, retried: number() | 0, errorMsg: text(200),
        uniqueKey: text(50), lastFailedAt: number(), completedAt: number(), deadline: number(), headers,
      }));
    }
  });

  it('answers null for a header the msg does not have, and the last entry of a repeated key', () => {
    const a = encode({ type: 'a', retried: 1, headers: { k: 'first', only: 'a' } });
    const b = encode({ type: 'b', retried: 2, headers: { k: 'second' } });
    // Concatenated protobuf messages merge: the last scalar wins and map entries add up.
    const merged = Buffer.concat([a, b]);
    expectSameAsCodec(merged);
    const v = readTaskMsg(merged)!;
    expect([v.typeText, v.retried, v.header(Buffer.from('k'))?.toString(), v.header(Buffer.from('only'))?.toString()]).toEqual(['b', 2, 'second', 'a']);
    expect(v.header(Buffer.from('missing'))).toBeNull();
    expect(v.header(Buffer.from('o'))).toBeNull();
    expect(readTaskMsg(encode({ type: 'a' }))!.header(Buffer.from(''))).toBeNull();
  });

  it('returns views into the reply, not copies', () => {
    const bytes = encode({ type: 'a', payload: Buffer.from('payload'), errorMsg: 'e', headers: { k: 'v' } });
    const v = readTaskMsg(bytes)!;
    for (const view of [v.type, v.payload, v.errorMsg, v.header(Buffer.from('k'))!]) {
      expect(view.buffer).toBe(bytes.buffer);
      expect(view.byteOffset).toBeGreaterThanOrEqual(bytes.byteOffset);
    }
  });

  it('skips unknown fields of every wire type, in the message and in a headers entry', () => {
    const unknown = Buffer.from([
      0x80, 0x01, 0x96, 0x01, // field 16, varint 150
      0x89, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, // field 17, fixed64
      0x92, 0x01, 0x03, 0x61, 0x62, 0x63, // field 18, 3 bytes
      0x9d, 0x01, 1, 2, 3, 4, // field 19, fixed32
      0xf8, 0xff, 0xff, 0xff, 0x0f, 0x01, // field 2^29-1 (the largest), varint 1
    ]);
    const entry = Buffer.from([0x0a, 0x01, 0x6b, 0x18, 0x05, 0x12, 0x01, 0x76]); // key "k", field 3 = 5, value "v"
    const withHeader = Buffer.concat([Buffer.from([0x7a, entry.length]), entry]);
    const bytes = Buffer.concat([unknown, encode({ type: 'a', retried: 4, errorMsg: 'e' }), unknown, withHeader]);
    expectSameAsCodec(bytes);
    expect(readTaskMsg(bytes)!.header(Buffer.from('k'))?.toString()).toBe('v');
  });

  it('skips a known field sent with another wire type, as protobuf-go does (it keeps it as unknown)', () => {
    // type (1) as varint 5, retried (6) as 1 byte, then the real type and retried.
    const v = readTaskMsg(Buffer.from([0x08, 0x05, 0x32, 0x01, 0x61, 0x0a, 0x01, 0x74, 0x30, 0x02]))!;
    expect([v.typeText, v.retried]).toEqual(['t', 2]);
    const wrongOnly = readTaskMsg(Buffer.from([0x08, 0x05, 0x35, 1, 2, 3, 4]))!;
    expect([wrongOnly.typeText, wrongOnly.retried]).toEqual(['', 0]);
  });

  it('reads a headers entry without key or value as the empty string, as protobuf-go does', () => {
    const v = readTaskMsg(Buffer.from([0x7a, 0x00, 0x7a, 0x03, 0x0a, 0x01, 0x6b]))!;
    expect(v.header(Buffer.from(''))?.toString()).toBe('');
    expect(v.header(Buffer.from('k'))?.toString()).toBe('');
  });
});

describe('readTaskMsg on malformed bytes', () => {
  it.each<[string, number[], RegExp]>([
    ['wire type 7', [0x0f], /wire type 7 \(unknown\) at byte 0 of 1$/],
    ['wire type 6 after a field', [0x0a, 0x01, 0x61, 0x16], /wire type 6 \(unknown\) at byte 3 of 4$/],
    ['a group', [0x0b, 0x0c], /wire type 3 \(a group: proto3 has none\) at byte 0/],
    ['field number 0', [0x00, 0x01], /field number 0 or above 2\^29-1 at byte 0/],
    ['field number 2^29', [0x80, 0x80, 0x80, 0x80, 0x10, 0x00], /field number 0 or above/],
    ['a truncated tag', [0x80], /truncated varint at byte 0 of 1$/],
    ['a truncated value', [0x30, 0xff, 0xff], /truncated varint at byte 1 of 3$/],
    ['an eleven-byte varint', [0x30, ...Array<number>(10).fill(0xff), 0x01], /varint longer than 64 bits at byte 1/],
    ['a tenth byte over bit 63', [0x30, ...Array<number>(9).fill(0xff), 0x02], /varint longer than 64 bits at byte 1/],
    ['a length past the end', [0x0a, 0x05, 0x61], /length 5 past the end at byte 1 of 3$/],
    ['a huge length', [0x12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], /length \d+ past the end at byte 1/],
    ['a fixed64 past the end', [0x81, 0x01, 1, 2, 3], /8-byte value past the end at byte 2 of 5$/],
    ['a fixed32 past the end', [0x85, 0x01, 1], /4-byte value past the end at byte 2 of 3$/],
    ['a length past the end of a headers entry', [0x7a, 0x02, 0x0a, 0x05], /length 5 past the end at byte 3 of 4$/],
    ['a bad wire type inside a headers entry', [0x7a, 0x01, 0x0f], /wire type 7 \(unknown\) at byte 2 of 3$/],
    ['JSON', [...Buffer.from('{"json":"not protobuf"}')], /not a valid TaskMessage: /],
  ])('%s', (_name, bytes, problem) => {
    expect(readTaskMsg(Buffer.from(bytes))).toBeNull();
    expect(taskMsgProblem(Buffer.from(bytes))).toMatch(problem);
  });

  it('says nothing is wrong with a well-formed message, the empty one included', () => {
    expect(taskMsgProblem(encode({ type: 'a' }))).toBeNull();
    expect(taskMsgProblem(Buffer.alloc(0))).toBeNull();
    expect(readTaskMsg(Buffer.alloc(0))).toMatchObject({ retry: 0, retried: 0, lastFailedAt: 0, completedAt: 0, headerSpans: null });
  });

  it('cut at every byte: malformed exactly when the codec refuses it, otherwise the same fields', () => {
    const full = encode({
      type: 'cut:me', payload: Buffer.alloc(200, 0x41), retry: -1, retried: 3, errorMsg: 'boom ü', uniqueKey: 'asynq:{q}:unique:x',
      lastFailedAt: -62_135_596_800, completedAt: 2 ** 60, headers: { a: 'b', 'ключ': 'значение' },
    });
    let refused = 0;
    for (let n = 0; n < full.length; n++) {
      const cut = full.subarray(0, n);
      let codecRefuses = false;
      try {
        decodeTaskMessage(cut);
      } catch {
        codecRefuses = true;
      }
      if (codecRefuses) {
        refused++;
        expect(readTaskMsg(cut), `cut at ${n}`).toBeNull();
        expect(taskMsgProblem(cut), `cut at ${n}`).toMatch(new RegExp(`^not a valid TaskMessage: .+ at byte \\d+ of ${n}$`));
      } else {
        expectSameAsCodec(cut);
      }
    }
    // Only the cuts between fields leave a message (one per field, and the empty one).
    expect(refused).toBeGreaterThan(full.length - 20);
  });

  it('never throws on random corruption of a real message', () => {
    const base = encode({ type: 'fuzz', payload: Buffer.from('{"a":1}'), retried: 2, errorMsg: 'e', lastFailedAt: 1_800_000_000, headers: { k: 'v', x: 'y' } });
    let seed = 99;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    for (let i = 0; i < 5000; i++) {
      const bytes = Buffer.from(base);
      for (let k = 1 + rnd(3); k > 0; k--) bytes[rnd(bytes.length)] = rnd(256);
      const v = readTaskMsg(bytes);
      if (v === null) {
        expect(taskMsgProblem(bytes)).toMatch(/^not a valid TaskMessage: /);
        continue;
      }
      for (const [s, e] of [[v.typeStart, v.typeEnd], [v.payloadStart, v.payloadEnd], [v.errorStart, v.errorEnd], [v.uniqueKeyStart, v.uniqueKeyEnd]] as const) {
        expect(0 <= s && s <= e && e <= bytes.length).toBe(true);
      }
      for (const x of v.headerSpans ?? []) expect(x).toBeLessThanOrEqual(bytes.length);
    }
  });
});
