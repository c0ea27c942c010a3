import { describe, expect, it } from 'vitest';
import { base64ToBytes } from '@/components/payload/bytes';
import { encodePayload, NEW_PAYLOAD } from '@/components/payload/payload-draft';

const binary = (binaryFormat: 'hex' | 'base64', text: string) => encodePayload({ ...NEW_PAYLOAD, mode: 'binary', binaryFormat, binary: text });

describe('the enqueue form sends typed bytes exactly', () => {
  it('hex ff fe 00 41 (not UTF-8) becomes the base64 of exactly those four bytes', () => {
    for (const typed of ['ff fe 00 41', 'FFFE0041', '0xff 0xfe\n0x00 0x41']) {
      const out = binary('hex', typed);
      expect(out).toEqual({ ok: true, payload: '//4AQQ==', encoding: 'base64', size: 4 });
      if (out.ok) expect([...base64ToBytes(out.payload!)]).toEqual([0xff, 0xfe, 0x00, 0x41]);
    }
  });

  it('base64 is sent as typed, without its line breaks', () => {
    expect(binary('base64', '//4A\nQQ==')).toEqual({ ok: true, payload: '//4AQQ==', encoding: 'base64', size: 4 });
  });

  it('refuses what is not hex or base64 rather than guessing', () => {
    expect(binary('hex', 'ff f')).toMatchObject({ ok: false });
    expect(binary('hex', 'zz')).toMatchObject({ ok: false });
    expect(binary('base64', '//4AQQ=')).toMatchObject({ ok: false });
  });

  it('text with bidi and control characters is sent as typed (escaping is display only)', () => {
    const text = 'a\u202Eb\u200B\u0007';
    expect(encodePayload({ ...NEW_PAYLOAD, mode: 'text', text })).toEqual({ ok: true, payload: text, encoding: 'utf8', size: 9 });
  });
});
