import { describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));
const { iso, isoMs, isoSec } = await import('@/lib/server/dto/time');

/** Times the formatter must write exactly as toISOString does: both ends of its four-digit years, leap days, the epoch. */
const EDGES = [
  0, -1, 1, 999, 1000, -1000, 951_782_400_000 /* 2000-02-29 */, 4_107_542_399_999 /* 2100-02-28T23:59:59.999 */,
  -62_167_219_200_000 /* 0000-01-01 */, -62_167_219_200_001, 253_402_300_799_999 /* 9999-12-31T23:59:59.999 */, 253_402_300_800_000,
  -2_208_988_800_000 /* 1900-01-01 */, 1_764_690_000_123,
];

describe('ISO times', () => {
  it('writes what toISOString writes, with and without milliseconds', () => {
    const random = Array.from({ length: 20_000 }, () => Math.floor((Math.random() * 2 - 0.3) * 253_402_300_799_999));
    for (const ms of [...EDGES, ...random]) {
      const text = new Date(ms).toISOString();
      expect(isoMs(ms)).toBe(text);
      expect(iso(new Date(ms))).toBe(text.replace(/\.\d{3}Z$/, 'Z'));
    }
  });

  it('reads Unix seconds, 0 as never', () => {
    expect(isoSec(0)).toBeNull();
    expect(isoSec(1_700_000_000)).toBe('2023-11-14T22:13:20Z');
    expect(iso(null)).toBeNull();
  });

  it('fails on a time Date cannot hold, as toISOString does', () => {
    expect(() => isoMs(8.64e15 + 1)).toThrow(RangeError);
    expect(() => iso(new Date(NaN))).toThrow(RangeError);
  });
});
