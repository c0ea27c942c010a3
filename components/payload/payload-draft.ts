/**
 * A payload being written by hand (JSON, text, or bytes as hex, base64 or a file) and what it
 * becomes on the wire: `{ payload, payloadEncoding }`, byte for byte what was typed. Pure.
 */
import { base64ToBytes, bytesToBase64, tryParseJson } from './bytes';

export type PayloadMode = 'json' | 'text' | 'binary' | 'none';
export type BinaryFormat = 'hex' | 'base64' | 'file';

export interface PayloadDraft {
  mode: PayloadMode;
  /** The JSON or text being typed (both modes share it, so switching keeps the text). */
  text: string;
  binaryFormat: BinaryFormat;
  /** Hex or base64 being typed. */
  binary: string;
  file: { name: string; base64: string; size: number } | null;
}

export const NEW_PAYLOAD: PayloadDraft = { mode: 'json', text: '{}', binaryFormat: 'hex', binary: '', file: null };

/** The server's own cap (lib/server/dto/payload.ts), checked here before a big upload is sent. */
export const MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;

export type EncodedPayload =
  | { ok: true; payload: string | null; encoding: 'utf8' | 'base64'; size: number }
  | { ok: false; error: string };

const utf8Size = (s: string) => new TextEncoder().encode(s).length;

function jsonError(text: string): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch (err) {
    return `Not valid JSON: ${err instanceof Error ? err.message : String(err)}`;
  }
}

export function hexToBytes(hex: string): Uint8Array | null {
  const clean = hex.replace(/\s+|0x/gi, '');
  if (clean.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(clean)) return null;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export const bytesToHex = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ').replace(/((?:\S+ ){16})/g, '$1\n').trim();

function binary(d: PayloadDraft): EncodedPayload {
  if (d.binaryFormat === 'file') {
    return d.file ? { ok: true, payload: d.file.base64, encoding: 'base64', size: d.file.size } : { ok: false, error: 'Choose a file' };
  }
  if (d.binaryFormat === 'hex') {
    const bytes = hexToBytes(d.binary);
    return bytes ? { ok: true, payload: bytesToBase64(bytes), encoding: 'base64', size: bytes.length } : { ok: false, error: 'Not hex: pairs of 0-9 a-f, spaces allowed' };
  }
  const clean = d.binary.replace(/\s+/g, '');
  if (clean.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return { ok: false, error: 'Not valid base64' };
  return { ok: true, payload: clean, encoding: 'base64', size: base64ToBytes(clean).length };
}

/** The draft → the request's payload fields, or why it cannot be sent. */
export function encodePayload(d: PayloadDraft): EncodedPayload {
  let out: EncodedPayload;
  if (d.mode === 'none') out = { ok: true, payload: null, encoding: 'utf8', size: 0 };
  else if (d.mode === 'binary') out = binary(d);
  else {
    const error = d.mode === 'json' ? jsonError(d.text) : null;
    out = error ? { ok: false, error } : { ok: true, payload: d.text, encoding: 'utf8', size: utf8Size(d.text) };
  }
  if (out.ok && out.size > MAX_PAYLOAD_BYTES) return { ok: false, error: `Over the ${MAX_PAYLOAD_BYTES / 1024 / 1024} MiB the server accepts` };
  return out;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
}

/** Keys sorted at every depth, no whitespace: what Go's json.Marshal writes for a map. */
export const canonicalJson = (text: string): string => JSON.stringify(sortKeys(JSON.parse(text)));
export const prettyJson = (text: string): string => JSON.stringify(JSON.parse(text), null, 2);

/**
 * A stored payload → a draft showing it as it is: JSON, text or base64. An empty payload is
 * nil when the task's unique key says so (its checksum is empty); otherwise, since asynq stores
 * nil and empty alike, it is taken as nil, what `NewTask(type, nil)` writes.
 */
export function draftFromPayload(payload: string, encoding: 'utf8' | 'base64', uniqueKey: string | null): PayloadDraft {
  if (encoding === 'base64') return { ...NEW_PAYLOAD, mode: 'binary', binaryFormat: 'base64', binary: payload };
  if (payload === '') return { ...NEW_PAYLOAD, mode: uniqueKey && !uniqueKey.endsWith(':') ? 'text' : 'none', text: '' };
  return { ...NEW_PAYLOAD, mode: tryParseJson(payload).ok ? 'json' : 'text', text: payload };
}
