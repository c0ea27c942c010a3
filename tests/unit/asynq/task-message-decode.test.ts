/**
 * decodeTaskMessage reads a msg in one pass (task-msg-view.ts) and leaves to protobuf-es only
 * the bytes that pass cannot vouch for. Either way the answer must be protobuf-es's own, field
 * for field and type for type, or a CodecError exactly where protobuf-es refuses the bytes.
 */
import { describe, expect, it } from 'vitest';
import { CodecError, decodeTaskMessage, decodeWithProtobufEs, encodeTaskMessage } from '@/lib/asynq/codec';
import { newTaskMessage } from '@/lib/asynq/testutil/factories';
import type { TaskMessage } from '@/lib/asynq/types';

/** Decodes `bytes` both ways: the same message, or both refuse (ours with a CodecError). */
function expectSame(bytes: Uint8Array, what: string): 'decoded' | 'refused' {
  let reference: TaskMessage | Error;
  try {
    reference = decodeWithProtobufEs(bytes);
  } catch (err) {
    reference = err as Error;
  }
  if (reference instanceof Error) {
    expect(() => decodeTaskMessage(bytes), what).toThrow(CodecError);
    return 'refused';
  }
  expect(decodeTaskMessage(bytes), what).toStrictEqual(reference);
  return 'decoded';
}

const encode = (over: Partial<TaskMessage> & { type: string }) => Buffer.from(encodeTaskMessage(newTaskMessage(over)));

const full = encode({
  type: 'cut:me', payload: Buffer.alloc(200, 0x41), id: 'b1600000-0000-4000-8000-000000000001', queue: 'q', retry: -1, retried: 3,
  errorMsg: 'boom ü', timeout: 1800, deadline: 1_800_000_500, uniqueKey: 'asynq:{q}:unique:x', lastFailedAt: -62_135_596_800,
  retention: 3600, completedAt: 2 ** 60, groupKey: 'g', headers: { a: 'b', 'ключ': 'значение', '': '' },
});

describe('decodeTaskMessage', () => {
  it('decodes what the codec wrote, every field, as protobuf-es does', () => {
    expect(expectSame(full, 'full')).toBe('decoded');
    expect(expectSame(encode({ type: '', id: '', queue: '', retry: 0, timeout: 0 }), 'only defaults')).toBe('decoded');
    expect(decodeTaskMessage(encode({ type: 't', payload: new Uint8Array() })).payload).toStrictEqual(new Uint8Array(0));
  });

  it('agrees on 500 random messages, from a Buffer and from a plain Uint8Array', () => {
    let seed = 4242;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const text = (max: number) => Array.from({ length: rnd(max) }, () => String.fromCodePoint([rnd(128), 0xe9 + rnd(50), 0x1f600 + rnd(50), 0xfeff][rnd(4)]!)).join('');
    const number = () => [0, rnd(1000), -rnd(1000), rnd(2 ** 31) * rnd(2 ** 22), -(rnd(2 ** 31) * rnd(2 ** 22))][rnd(5)]!;
    for (let i = 0; i < 500; i++) {
      const headers: Record<string, string> = {};
      for (let h = rnd(4); h > 0; h--) headers[text(8)] = text(20);
      const bytes = encode({
        type: text(30), payload: Buffer.from(text(300)), id: text(40), queue: text(20), retry: number() | 0, retried: number() | 0,
        errorMsg: text(200), timeout: number(), deadline: number(), uniqueKey: text(50), lastFailedAt: number(), retention: number(),
        completedAt: number(), groupKey: text(10), headers,
      });
      expect(expectSame(bytes, `message ${i}`)).toBe('decoded');
      expect(expectSame(new Uint8Array(bytes), `message ${i} as Uint8Array`)).toBe('decoded');
    }
  }, 30_000);

  it('reads merged messages (last field wins, map entries add up) and a "__proto__" header as an own key', () => {
    const merged = Buffer.concat([encode({ type: 'a', retried: 1, headers: { k: 'first', only: 'a' } }), encode({ type: 'b', retried: 2, headers: { k: 'second' } })]);
    expect(expectSame(merged, 'merged')).toBe('decoded');
    const proto = Buffer.from([0x0a, 0x01, 0x74, 0x7a, 0x0f, 0x0a, 0x09, ...Buffer.from('__proto__'), 0x12, 0x02, 0x76, 0x31]);
    expect(expectSame(proto, '__proto__')).toBe('decoded');
    expect(Object.keys(decodeTaskMessage(proto).headers)).toEqual(['__proto__']);
  });

  it('leaves to protobuf-es a known field of another wire type, invalid UTF-8 and groups', () => {
    // type (1) as a varint, then the real type; retried (6) as 1 byte of length-delimited data.
    expectSame(Buffer.from([0x08, 0x05, 0x0a, 0x01, 0x74]), 'type as a varint');
    expectSame(Buffer.from([0x32, 0x01, 0x61, 0x0a, 0x01, 0x74]), 'retried as bytes');
    // A headers entry whose key (1) is a varint.
    expectSame(Buffer.from([0x7a, 0x02, 0x08, 0x01]), 'header key as a varint');
    for (const field of [0x0a, 0x1a, 0x22, 0x3a, 0x52, 0x72]) {
      expect(expectSame(Buffer.from([field, 0x02, 0xc3, 0x28]), `invalid UTF-8 in tag ${field}`)).toBe('refused');
    }
    expect(expectSame(Buffer.from([0x7a, 0x04, 0x0a, 0x02, 0xff, 0xfe]), 'invalid UTF-8 in a header key')).toBe('refused');
    expect(expectSame(Buffer.from([0x12, 0x02, 0xff, 0xfe]), 'a payload is bytes, not text')).toBe('decoded');
    // An unknown field as a group (field 16): protobuf-es skips it; the one-pass reader does not.
    expectSame(Buffer.from([0x83, 0x01, 0x84, 0x01, 0x0a, 0x01, 0x74]), 'a group');
  });

  it('cut at every byte and corrupted at random: the same message, or refused by both', () => {
    for (let n = 0; n <= full.length; n++) expectSame(full.subarray(0, n), `cut at ${n}`);
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    for (let i = 0; i < 3000; i++) {
      const bytes = Buffer.from(full);
      for (let k = 1 + rnd(3); k > 0; k--) bytes[rnd(bytes.length)] = rnd(256);
      expectSame(bytes, `corruption ${i}: ${bytes.toString('hex')}`);
    }
  }, 30_000);
});
