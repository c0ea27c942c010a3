/**
 * What a task search looks for. Every condition given must hold (AND); a list condition holds
 * when any of its values does (OR). An empty filter matches every task.
 */
import { createHash } from 'node:crypto';
import type { TaskState } from '../states';

/** How a JSON field's value is compared: equality, or an order against a number or ISO time. */
export type JsonFieldOp = '=' | '>' | '>=' | '<' | '<=';

/**
 * `payload.<path>=<value>`: a JSON payload whose value at `path` equals `value` (or, with `op`,
 * compares to it); with `negate`, a payload that does not (a missing field or a payload that is
 * not JSON included).
 */
export interface JsonFieldCondition {
  /** Object keys and array indexes, e.g. `['user', 'id']` or `['items', '0', 'sku']`. */
  path: readonly string[];
  /**
   * Equality compares as JSON: "42" matches 42 and "42"; "true" matches true; "null" matches
   * null. An order needs a JSON number ("100", compared with numbers and numeric strings) or an
   * ISO date or time ("2026-01-31", "2026-01-31T10:00:00Z", compared with such strings).
   */
  value: string;
  /** Default `=`. */
  op?: JsonFieldOp | undefined;
  negate?: boolean | undefined;
}

export interface SearchFilter {
  /** Queue names; default every queue in asynq:queues. */
  queues?: readonly string[] | undefined;
  /** Default all seven. */
  states?: readonly TaskState[] | undefined;
  /** Exact task types. */
  types?: readonly string[] | undefined;
  /** Task type prefixes (`email:` matches `email:welcome`). */
  typePrefixes?: readonly string[] | undefined;
  /** Exact task ID, looked up directly in each queue (no scan). */
  id?: string | undefined;
  /** Task ID prefixes (a full ID is its own prefix); tested on the ID before the msg is read. */
  idPrefixes?: readonly string[] | undefined;
  /** Case-sensitive substring of a payload that is valid UTF-8 text. */
  payloadContains?: string | undefined;
  /** Each must hold (AND). */
  payloadFields?: readonly JsonFieldCondition[] | undefined;
  /**
   * Words and phrases of a search query: each must occur in the payload (valid UTF-8 text,
   * case-sensitive) or be a prefix of the task ID.
   */
  terms?: readonly string[] | undefined;
  /** Case-sensitive substring(s) of the last error asynq stored; every one must occur. */
  errorContains?: string | readonly string[] | undefined;
  /** Header key → exact value. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Retried at least this many times. */
  minRetried?: number | undefined;
  /** Windows are half-open: `after` ≤ t < `before`. */
  lastFailedAfter?: Date | undefined;
  lastFailedBefore?: Date | undefined;
  /** Next run: now for pending tasks, the zset score for scheduled and retry, none otherwise. */
  nextRunAfter?: Date | undefined;
  nextRunBefore?: Date | undefined;
  completedAfter?: Date | undefined;
  completedBefore?: Date | undefined;
}

const sorted = (xs: readonly string[] | undefined) => (xs ? [...new Set(xs)].sort() : null);
const byJson = (a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);

/** `errorContains` as a list (one string or several). */
export const errorNeedles = (f: SearchFilter): readonly string[] =>
  f.errorContains === undefined ? [] : typeof f.errorContains === 'string' ? [f.errorContains] : f.errorContains;
const time = (d: Date | undefined) => (d ? d.getTime() : null);

/** The filter in one canonical form: equal filters give equal strings. */
function canonical(f: SearchFilter): string {
  return JSON.stringify([
    sorted(f.queues), sorted(f.states), sorted(f.types), sorted(f.typePrefixes), f.id ?? null, sorted(f.idPrefixes),
    f.payloadContains ?? null,
    (f.payloadFields ?? []).map((c) => [c.path, c.value, c.op ?? '=', c.negate === true]).sort(byJson),
    sorted(f.terms),
    f.errorContains === undefined ? null : sorted([...errorNeedles(f)]),
    Object.entries(f.headers ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    f.minRetried ?? null,
    time(f.lastFailedAfter), time(f.lastFailedBefore), time(f.nextRunAfter), time(f.nextRunBefore),
    time(f.completedAfter), time(f.completedBefore),
  ]);
}

/** A short hash of the filter; a cursor carries it so it cannot be replayed with another filter. */
export function filterFingerprint(f: SearchFilter): string {
  return createHash('sha1').update(canonical(f)).digest('base64url').slice(0, 12);
}

/**
 * True when the filter looks inside the msg. A task whose msg is missing or unreadable can
 * only match a filter that does not: it is then listed with its problem, never dropped.
 */
export function readsMessage(f: SearchFilter): boolean {
  return Boolean(
    f.types?.length || f.typePrefixes?.length || f.payloadContains !== undefined || f.payloadFields?.length ||
    f.terms?.length || f.errorContains !== undefined || Object.keys(f.headers ?? {}).length || f.minRetried !== undefined ||
    f.lastFailedAfter || f.lastFailedBefore || f.completedAfter || f.completedBefore,
  );
}
