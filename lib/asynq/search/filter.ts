/**
 * What a task search looks for. Every condition given must hold (AND); a list condition holds
 * when any of its values does (OR). An empty filter matches every task.
 */
import { createHash } from 'node:crypto';
import type { TaskState } from '../states';

/** `payload.<path>=<value>`: a JSON payload whose value at `path` equals `value`. */
export interface JsonFieldCondition {
  /** Object keys and array indexes, e.g. `['user', 'id']` or `['items', '0', 'sku']`. */
  path: readonly string[];
  /** Compared as JSON: "42" matches 42 and "42"; "true" matches true; "null" matches null. */
  value: string;
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
  /** Case-sensitive substring of a payload that is valid UTF-8 text. */
  payloadContains?: string | undefined;
  payloadFields?: readonly JsonFieldCondition[] | undefined;
  /** Case-sensitive substring of the last error asynq stored. */
  errorContains?: string | undefined;
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
const time = (d: Date | undefined) => (d ? d.getTime() : null);

/** The filter in one canonical form: equal filters give equal strings. */
function canonical(f: SearchFilter): string {
  return JSON.stringify([
    sorted(f.queues), sorted(f.states), sorted(f.types), sorted(f.typePrefixes), f.id ?? null,
    f.payloadContains ?? null,
    (f.payloadFields ?? []).map((c) => [c.path, c.value]).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)),
    f.errorContains ?? null,
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
    f.errorContains !== undefined || Object.keys(f.headers ?? {}).length || f.minRetried !== undefined ||
    f.lastFailedAfter || f.lastFailedBefore || f.completedAfter || f.completedBefore,
  );
}
