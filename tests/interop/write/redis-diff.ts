/**
 * Compares two `dump-redis` snapshots key by key: the one asynq's own code produced and ours.
 * Every key, type, TTL presence and value must match, except a zset score or integer string
 * equal to "now" (inside the window the operations ran in; also a task's `pending_since`, in
 * nanoseconds), which may differ by ≤ 2 s because
 * the two sides ran a moment apart. Each difference comes back as one readable line that names
 * the key, the member or field, and both values.
 */
import { decodeTaskMessage } from '@/lib/asynq/codec';
import type { RawDump, RawKey } from './go';

export interface NowWindow {
  /** Unix seconds just before the first of the two operations started. */
  fromSec: number;
  /** Unix seconds just after the second finished. */
  toSec: number;
}

const SLACK = 2;

const text = (b64: string): string => Buffer.from(b64, 'base64').toString('utf8');

function showMsg(b64: string): string {
  try {
    const m = decodeTaskMessage(Buffer.from(b64, 'base64'));
    return JSON.stringify({ ...m, payload: Buffer.from(m.payload).toString('hex') });
  } catch {
    return `<undecodable ${b64}>`;
  }
}

function showKey(k: RawKey): string {
  switch (k.type) {
    case 'string':
      return `string ${JSON.stringify(text(k.value as string))}`;
    case 'list':
    case 'set':
      return `${k.type} [${(k.value as string[]).map(text).join(', ')}]`;
    case 'zset':
      return `zset {${(k.value as [string, number][]).map(([m, s]) => `${text(m)}:${s}`).join(', ')}}`;
    case 'hash':
      return `hash {${Object.keys(k.value as object).sort().join(', ')}}`;
    default:
      return k.type;
  }
}

/** Whether two "now" timestamps may be treated as equal. */
function nowish(a: number, b: number, w: NowWindow | undefined): boolean {
  if (!w) return false;
  const inWindow = (x: number) => x >= w.fromSec - 1 && x <= w.toSec + 1;
  return Math.abs(a - b) <= SLACK && inWindow(a) && inWindow(b);
}

function diffKey(key: string, a: RawKey, b: RawKey, w: NowWindow | undefined, out: string[]): void {
  if (a.type !== b.type) {
    out.push(`${key}: type differs — asynq ${showKey(a)}, ours ${showKey(b)}`);
    return;
  }
  if (a.ttl !== b.ttl) out.push(`${key}: TTL differs — asynq ${a.ttl}, ours ${b.ttl}`);
  switch (a.type) {
    case 'string': {
      const [x, y] = [text(a.value as string), text(b.value as string)];
      if (x !== y && !(/^\d+$/.test(x) && /^\d+$/.test(y) && nowish(Number(x), Number(y), w))) {
        out.push(`${key}: value differs — asynq ${JSON.stringify(x)}, ours ${JSON.stringify(y)}`);
      }
      return;
    }
    case 'list':
    case 'set': {
      const [x, y] = [(a.value as string[]).map(text), (b.value as string[]).map(text)];
      if (JSON.stringify(x) !== JSON.stringify(y)) {
        out.push(`${key}: ${a.type} differs — asynq [${x.join(', ')}], ours [${y.join(', ')}]`);
      }
      return;
    }
    case 'zset': {
      const x = new Map((a.value as [string, number][]).map(([m, s]) => [text(m), s]));
      const y = new Map((b.value as [string, number][]).map(([m, s]) => [text(m), s]));
      for (const [m, s] of x) {
        const t = y.get(m);
        if (t === undefined) out.push(`${key}: member ${m} (score ${s}) only in asynq's result`);
        else if (t !== s && !nowish(s, t, w)) out.push(`${key}: member ${m} score differs — asynq ${s}, ours ${t}`);
      }
      for (const [m, t] of y) if (!x.has(m)) out.push(`${key}: member ${m} (score ${t}) only in ours`);
      return;
    }
    case 'hash': {
      const x = a.value as Record<string, string>;
      const y = b.value as Record<string, string>;
      for (const f of new Set([...Object.keys(x), ...Object.keys(y)])) {
        if (x[f] === y[f]) continue;
        // pending_since is "now" in Unix nanoseconds.
        if (f === 'pending_since' && x[f] && y[f]) {
          const [sx, sy] = [Number(BigInt(text(x[f])) / 1_000_000_000n), Number(BigInt(text(y[f])) / 1_000_000_000n)];
          if (nowish(sx, sy, w)) continue;
        }
        const show = (v: string | undefined) => (v === undefined ? '(absent)' : f === 'msg' ? showMsg(v) : JSON.stringify(text(v)));
        out.push(`${key}: field ${f} differs — asynq ${show(x[f])}, ours ${show(y[f])}`);
      }
      return;
    }
    default:
      if (JSON.stringify(a.value) !== JSON.stringify(b.value)) out.push(`${key}: ${a.type} value differs`);
  }
}

/** Every difference between asynq's snapshot and ours, as readable lines (empty = equal). */
export function diffDumps(asynq: RawDump, ours: RawDump, window?: NowWindow): string[] {
  const out: string[] = [];
  for (const key of [...new Set([...Object.keys(asynq), ...Object.keys(ours)])].sort()) {
    const a = asynq[key];
    const b = ours[key];
    if (a && !b) out.push(`${key}: only in asynq's result (${showKey(a)})`);
    else if (!a && b) out.push(`${key}: only in ours (${showKey(b)})`);
    else if (a && b) diffKey(key, a, b, window, out);
  }
  return out;
}

/** The text of a string key of a dump (null when absent). */
export function stringValue(d: RawDump, key: string): string | null {
  const k = d[key];
  return k && k.type === 'string' ? text(k.value as string) : null;
}

/** A copy of `d` without `keys`. */
export function withoutKeys(d: RawDump, keys: readonly string[]): RawDump {
  const copy = { ...d };
  for (const k of keys) delete copy[k];
  return copy;
}
