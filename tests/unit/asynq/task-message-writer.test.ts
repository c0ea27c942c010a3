import { create, toBinary } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { TaskMessageSchema } from '@/lib/asynq/proto/gen/asynq_pb';
import { writeTaskMessage } from '@/lib/asynq/task-message-writer';
import type { TaskMessage } from '@/lib/asynq';

/** What protobuf-es's reflective encoder writes for `m`: the reference. */
function reference(m: TaskMessage): string {
  const bytes = toBinary(TaskMessageSchema, create(TaskMessageSchema, {
    ...m, timeout: BigInt(m.timeout), deadline: BigInt(m.deadline), lastFailedAt: BigInt(m.lastFailedAt),
    retention: BigInt(m.retention), completedAt: BigInt(m.completedAt),
  }));
  return Buffer.from(bytes).toString('hex');
}

const hex = (m: TaskMessage) => Buffer.from(writeTaskMessage(m)).toString('hex');

const base: TaskMessage = {
  type: 'email:welcome', payload: new Uint8Array([0x7b, 0x7d]), id: 'id-1', queue: 'default', retry: 25, retried: 0,
  errorMsg: '', timeout: 1800, deadline: 0, uniqueKey: '', lastFailedAt: 0, retention: 0, completedAt: 0, groupKey: '', headers: {},
};

/** A small deterministic PRNG, so a failure names a seed that reproduces it. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomMessage(seed: number): TaskMessage {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const strings = ['', 'a', 'default', 'ünïcødé ✓', '日本語', '😀 emoji', 'x'.repeat(127), 'y'.repeat(128), 'z'.repeat(20_000), 'lone \ud800 surrogate'];
  const int64s = [0, 1, 127, 128, 16_383, 16_384, 1_800_000_000, 2 ** 31, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 2 ** 62, 2 ** 63 - 1024, -1, -1800, Number.MIN_SAFE_INTEGER, -(2 ** 63)];
  const int32s = [0, 1, 25, 127, 128, 2 ** 31 - 1, -1, -(2 ** 31)];
  const headers: Record<string, string> = {};
  for (let i = Math.floor(r() * 4); i > 0; i--) headers[pick(strings)] = pick(strings);
  const payloadLen = pick([0, 1, 131, 300, 70_000]);
  return {
    type: pick(strings), payload: new Uint8Array(payloadLen).map(() => Math.floor(r() * 256)), id: pick(strings), queue: pick(strings),
    retry: pick(int32s), retried: pick(int32s), errorMsg: pick(strings), timeout: pick(int64s), deadline: pick(int64s),
    uniqueKey: pick(strings), lastFailedAt: pick(int64s), retention: pick(int64s), completedAt: pick(int64s), groupKey: pick(strings), headers,
  };
}

describe('writeTaskMessage', () => {
  it('writes what protobuf-es writes for a typical pending task', () => {
    expect(hex(base)).toBe(reference(base));
  });

  it('writes what protobuf-es writes for every field set, headers with empty keys and values included', () => {
    const full: TaskMessage = {
      ...base, retried: 3, errorMsg: 'boom', deadline: 1_800_000_000, uniqueKey: 'asynq:{default}:unique:x:', lastFailedAt: 1_799_999_999,
      retention: 3600, completedAt: 1_799_999_000, groupKey: 'g', headers: { a: '1', b: '', '': 'v' },
    };
    expect(hex(full)).toBe(reference(full));
  });

  it('writes negative int32 and int64 values sign-extended to ten bytes, as protobuf does', () => {
    const m = { ...base, retry: -1, deadline: -1 };
    expect(hex(m)).toBe(reference(m));
    expect(hex(m)).toContain('28ffffffffffffffffff01');
  });

  it('agrees with protobuf-es on 2,000 random messages', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const m = randomMessage(seed);
      expect(hex(m), `seed ${seed}`).toBe(reference(m));
    }
  });

  it('refuses numbers protobuf cannot hold, as protobuf-es does', () => {
    expect(() => writeTaskMessage({ ...base, retry: 2 ** 31 })).toThrow(/invalid int32 for TaskMessage.retry/);
    expect(() => writeTaskMessage({ ...base, timeout: 1.5 })).toThrow(/invalid int64 for TaskMessage.timeout/);
    expect(() => writeTaskMessage({ ...base, deadline: 2 ** 63 })).toThrow(/invalid int64 for TaskMessage.deadline/);
    expect(() => create(TaskMessageSchema, { retry: 2 ** 31 }) && toBinary(TaskMessageSchema, create(TaskMessageSchema, { retry: 2 ** 31 }))).toThrow();
  });
});
