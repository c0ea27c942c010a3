import 'server-only';
import { HttpError } from '../http/errors';

/**
 * What the audit log may hold in Redis, in bytes, and the caps derived from it. Everything the
 * console stores under `asynqlens:audit*` is bounded by ASYNQLENS_AUDIT_MAX_BYTES: 7/8 for the
 * record of changes (a list of records of at most RECORD_MAX_BYTES each), 1/8 for the refusal
 * counts (24 hourly hashes of a bounded number of entries). The bounds are worst cases, so the
 * memory Redis reports for these keys stays below the budget whatever the requests contain.
 */
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
const MIN_MAX_BYTES = 1024 * 1024;
const MAX_MAX_BYTES = 1024 * 1024 * 1024;
const DEFAULT_MAX_RECORDS = 10_000;

/** A record's bound, as serialised (UTF-8 bytes of its JSON). */
export const RECORD_MAX_BYTES = 2048;
/** What one record may cost in Redis: its bytes plus the list's per-element and per-node share. */
const RECORD_COST = RECORD_MAX_BYTES + 64;
/**
 * What one refusal entry may cost in Redis: a field of at most ~470 bytes (user cut to 64
 * characters, escaped) and a value of at most ~200 bytes, in hashtable encoding (entry,
 * bucket and two allocations rounded up by the allocator).
 */
const REFUSAL_ENTRY_COST = 1024;
/** Hours of refusals kept: one hash per hour, expiring 24 hours after its hour began. */
export const REFUSAL_WINDOWS = 24;
/** A hash's own cost besides its entries (key, object, dict, expiry). */
const REFUSAL_KEY_COST = 512;

function wholeNumber(name: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new HttpError(500, 'invalid_config', `${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  }
  return n;
}

/** ASYNQLENS_AUDIT_MAX_BYTES: bytes, from 1 MiB to 1 GiB, default 16 MiB. */
export function auditMaxBytes(): number {
  const raw = process.env.ASYNQLENS_AUDIT_MAX_BYTES?.trim() || String(DEFAULT_MAX_BYTES);
  return wholeNumber('ASYNQLENS_AUDIT_MAX_BYTES', raw, MIN_MAX_BYTES, MAX_MAX_BYTES);
}

/** ASYNQLENS_AUDIT_MAX: a cap in records, default 10000; the byte budget may lower it. */
function auditMaxSetting(): number {
  const raw = process.env.ASYNQLENS_AUDIT_MAX?.trim() || String(DEFAULT_MAX_RECORDS);
  return wholeNumber('ASYNQLENS_AUDIT_MAX', raw, 1, 10_000_000);
}

/** Records kept: the smaller of ASYNQLENS_AUDIT_MAX and what 7/8 of the byte budget holds (6950 for 16 MiB, 434 for 1 MiB). */
export function auditMaxRecords(): number {
  const share = auditMaxBytes() - refusalShare();
  return Math.min(auditMaxSetting(), Math.floor(share / RECORD_COST));
}

const refusalShare = (): number => Math.floor(auditMaxBytes() / 8);

/** Entries per hourly refusal hash, its overflow entry included (84 for 16 MiB, 4 for 1 MiB). */
export function refusalFieldsPerWindow(): number {
  const perWindow = Math.floor(refusalShare() / REFUSAL_WINDOWS) - REFUSAL_KEY_COST;
  return Math.max(2, Math.floor(perWindow / REFUSAL_ENTRY_COST));
}
