import 'server-only';
import type { AuditPageDto, AuditRecordDto } from '@/lib/contract/audit';
import { HttpError } from '../http/errors';
import { getRedis } from '../redis/client';
import { boundRecord } from './bound';
import { auditMaxRecords } from './budget';
import { listRefusals } from './refusals';

/** One Redis list of changes, newest first, trimmed to auditMax() records. */
export const AUDIT_KEY = 'asynqlens:audit';

/**
 * Whether mutations are recorded: ASYNQLENS_AUDIT on (the default) or off. On whatever the
 * authentication mode: without sign-in the records name `anonymous`, and still say when, what
 * and how many. Off is for set-ups where Redis must hold asynq's keys only.
 */
export function auditEnabled(): boolean {
  const raw = (process.env.ASYNQLENS_AUDIT ?? '').trim().toLowerCase();
  if (['', 'on', '1', 'true'].includes(raw)) return true;
  if (['off', '0', 'false'].includes(raw)) return false;
  throw new HttpError(500, 'invalid_config', `ASYNQLENS_AUDIT must be on or off (got ${JSON.stringify(raw)})`);
}

/**
 * The list's cap in records: the smaller of ASYNQLENS_AUDIT_MAX and what ASYNQLENS_AUDIT_MAX_BYTES
 * holds (budget.ts). Throws naming the variable and its rule when either is malformed.
 */
export function auditMax(): number {
  return auditMaxRecords();
}

/**
 * Writes one record, bounded (bound.ts), to stdout (one JSON line, for log shipping) and to
 * Redis. Redis: one round trip, MULTI { LPUSH; LTRIM } on the one key, so the list never
 * exceeds its cap and the pair works on Redis Cluster too. O(1) for the push; LTRIM is
 * O(removed), one element per call once the list is full. Never throws: a lost record is
 * logged, the mutation's answer still goes out.
 */
export async function writeAudit(full: AuditRecordDto): Promise<void> {
  const { record, line } = boundRecord(full);
  process.stdout.write(`${JSON.stringify({ audit: record })}\n`);
  try {
    const replies = await getRedis().multi().lpush(AUDIT_KEY, line).ltrim(AUDIT_KEY, 0, auditMax() - 1).exec();
    const failed = replies?.find(([err]) => err !== null)?.[0];
    if (failed) throw failed;
  } catch (err) {
    console.error(`[asynqlens] audit record not stored in Redis (${err instanceof Error ? err.message : String(err)}): ${line}`);
  }
}

/**
 * One page of the log, newest first, with the refusals of the last 24 hours: two round trips
 * (LLEN + LRANGE, O(size) plus the offset walk; refusals.ts's MULTI of 24 HGETALL).
 */
export async function listAudit(page: number, size: number): Promise<AuditPageDto> {
  const start = (page - 1) * size;
  const [replies, refusals] = await Promise.all([getRedis().multi().llen(AUDIT_KEY).lrange(AUDIT_KEY, start, start + size - 1).exec(), listRefusals()]);
  const [lenErr, total] = replies?.[0] ?? [null, 0];
  const [rangeErr, items] = replies?.[1] ?? [null, []];
  if (lenErr ?? rangeErr) throw (lenErr ?? rangeErr) as Error;
  const records = (items as string[]).flatMap((s) => {
    try {
      return [JSON.parse(s) as AuditRecordDto];
    } catch {
      return [];
    }
  });
  return { records, total: total as number, page, size, maxRecords: auditMax(), refusals };
}
