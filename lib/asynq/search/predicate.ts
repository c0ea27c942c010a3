/**
 * Turns a filter into one function over a scanned row, with the cheap checks first: the row's
 * state and zset score, then the ID's prefix, then integer fields, then byte comparisons on
 * the type and headers, and the payload (substring, words, then JSON) last.
 */
import { isUtf8 } from 'node:buffer';
import type { TaskState } from '../states';
import type { SearchFilter } from './filter';
import { errorNeedles, readsMessage } from './filter';
import { compileJsonFields, jsonFieldsMatch } from './json-field';
import { readTaskMsg, type TaskMsgView } from '../task-msg-view';

/** One task as the scanner read it. */
export interface ScanRow {
  state: TaskState;
  id: Buffer;
  /** The hash's msg; null when the hash or its msg is gone. */
  msg: Buffer | null;
  /** The zset score (Unix seconds); null for lists. */
  score: number | null;
}

export type RowPredicate = (row: ScanRow, nowSec: number) => boolean;

type MsgCheck = (f: TaskMsgView, id: Buffer) => boolean;

const startsWith = (b: Buffer, p: Buffer) => b.length >= p.length && b.compare(p, 0, p.length, 0, p.length) === 0;

const sec = (d: Date) => d.getTime() / 1000;

/** `after` ≤ t < `before`, where t = 0 means "never" and matches no window. */
function window(get: (f: TaskMsgView) => number, after?: Date, before?: Date): MsgCheck | null {
  if (!after && !before) return null;
  const lo = after ? sec(after) : -Infinity;
  const hi = before ? sec(before) : Infinity;
  return (f) => {
    const t = get(f);
    return t > 0 && t >= lo && t < hi;
  };
}

function msgChecks(filter: SearchFilter): MsgCheck[] {
  const checks: (MsgCheck | null)[] = [];
  const types = (filter.types ?? []).map((t) => Buffer.from(t));
  const prefixes = (filter.typePrefixes ?? []).map((t) => Buffer.from(t));
  if (types.length || prefixes.length) {
    checks.push((f) => {
      const type = f.type;
      return types.some((t) => type.equals(t)) || prefixes.some((p) => startsWith(type, p));
    });
  }
  if (filter.minRetried !== undefined) {
    const n = filter.minRetried;
    checks.push((f) => f.retried >= n);
  }
  checks.push(window((f) => f.lastFailedAt, filter.lastFailedAfter, filter.lastFailedBefore));
  checks.push(window((f) => f.completedAt, filter.completedAfter, filter.completedBefore));
  for (const [key, value] of Object.entries(filter.headers ?? {})) {
    const k = Buffer.from(key);
    const v = Buffer.from(value);
    checks.push((f) => f.header(k)?.equals(v) === true);
  }
  for (const text of errorNeedles(filter)) {
    const needle = Buffer.from(text);
    checks.push((f) => f.errorEnd > f.errorStart && f.errorMsg.indexOf(needle) !== -1);
  }
  if (filter.payloadContains !== undefined) {
    const needle = Buffer.from(filter.payloadContains);
    // Text payloads only: the UTF-8 check runs on hits alone, so misses stay a memchr.
    checks.push((f) => {
      const payload = f.payload;
      return payload.indexOf(needle) !== -1 && isUtf8(payload);
    });
  }
  for (const term of filter.terms ?? []) {
    const needle = Buffer.from(term);
    // The ID first: it is short and already in hand; the payload must be text, as above.
    checks.push((f, id) => startsWith(id, needle) || (f.payload.indexOf(needle) !== -1 && isUtf8(f.payload)));
  }
  const fields = compileJsonFields(filter.payloadFields ?? []);
  if (fields.length) checks.push((f) => jsonFieldsMatch(f.payload, fields));
  return checks.filter((c): c is MsgCheck => c !== null);
}

/** asynq's NextProcessAt: now for pending, the score for scheduled and retry, else none. */
function nextRunCheck(filter: SearchFilter): ((row: ScanRow, nowSec: number) => boolean) | null {
  if (!filter.nextRunAfter && !filter.nextRunBefore) return null;
  const lo = filter.nextRunAfter ? sec(filter.nextRunAfter) : -Infinity;
  const hi = filter.nextRunBefore ? sec(filter.nextRunBefore) : Infinity;
  return (row, nowSec) => {
    const t = row.state === 'pending' ? nowSec : row.state === 'scheduled' || row.state === 'retry' ? row.score : null;
    return t !== null && t >= lo && t < hi;
  };
}

/** States in which a task can have a next run time at all (the others never match nextRun*). */
export const NEXT_RUN_STATES: readonly TaskState[] = ['pending', 'scheduled', 'retry'];

/** The filter's test for one row (queue and state are chosen by the scan, not tested here). */
export function compilePredicate(filter: SearchFilter): RowPredicate {
  const nextRun = nextRunCheck(filter);
  const idPrefixes = (filter.idPrefixes ?? []).map((p) => Buffer.from(p));
  const checks = msgChecks(filter);
  const needsMsg = readsMessage(filter);
  return (row, nowSec) => {
    if (nextRun && !nextRun(row, nowSec)) return false;
    if (idPrefixes.length && !idPrefixes.some((p) => startsWith(row.id, p))) return false;
    if (!needsMsg) return true;
    if (row.msg === null) return false;
    const f = readTaskMsg(row.msg);
    if (f === null) return false;
    for (const c of checks) if (!c(f, row.id)) return false;
    return true;
  };
}
