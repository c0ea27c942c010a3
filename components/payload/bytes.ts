/**
 * Byte helpers for the payload views: base64 in and out, hex rows, UTF-8 sniffing.
 */

export function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let bin = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) bin += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(bin);
}

/** The bytes as text when they are valid UTF-8, else null. */
export function utf8OrNull(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

const hex2 = (b: number) => b.toString(16).padStart(2, '0');

/** One line of a hex dump: offset, 16 bytes in hex, and their printable ASCII. */
export function hexLine(bytes: Uint8Array, offset: number): string {
  const row = bytes.subarray(offset, offset + 16);
  const hex = Array.from(row, hex2).join(' ').padEnd(47, ' ');
  const ascii = Array.from(row, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
  return `${offset.toString(16).padStart(8, '0')}  ${hex.slice(0, 23)}  ${hex.slice(24)}  ${ascii}`;
}

/**
 * Parses text as JSON only when it plausibly is (starts with { or [) and is small enough to
 * parse without a visible pause; anything else is shown as text.
 */
export function tryParseJson(text: string, maxChars = 2 * 1024 * 1024): { ok: true; value: unknown } | { ok: false } {
  const t = text.trimStart();
  if (t.length > maxChars || !(t.startsWith('{') || t.startsWith('['))) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(t) as unknown };
  } catch {
    return { ok: false };
  }
}
