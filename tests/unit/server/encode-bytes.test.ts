import { describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));
const { encodeBytes } = await import('@/lib/server/dto/tasks');

describe('encodeBytes', () => {
  it('keeps valid UTF-8 as text, newlines and all', () => {
    expect(encodeBytes(Buffer.from('{"a":\n"ü"}'))).toEqual({ text: '{"a":\n"ü"}', encoding: 'utf8', truncated: false });
  });
  it('sends anything else as base64', () => {
    expect(encodeBytes(new Uint8Array([0xff, 0x00]))).toEqual({ text: '/wA=', encoding: 'base64', truncated: false });
  });
  it('cuts at the limit without splitting a character', () => {
    const out = encodeBytes(Buffer.from('aaü'), 3); // ü is 2 bytes: the cut falls inside it
    expect(out).toEqual({ text: 'aa', encoding: 'utf8', truncated: true });
  });
});
