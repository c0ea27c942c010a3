import 'server-only';
import type { AuditRecordDto } from '@/lib/contract/audit';
import { RECORD_MAX_BYTES } from './budget';

/** Characters a string field keeps before the record is measured; tightened when it still does not fit. */
const FIELD_LIMITS = [200, 64, 16] as const;

/**
 * `s` cut to `max` characters with a `…` marker, never splitting a surrogate pair; null when
 * it fits. Copies at most `max` characters whatever the input's size.
 */
export function cutText(s: string, max: number): string | null {
  if (s.length <= max) return null;
  let end = max - 1;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${s.slice(0, end)}…`;
}

/** The record with every string field cut to `limit` characters (when 0: 16, and target values to `…`), and the lengths cut. */
function cutRecord(rec: AuditRecordDto, limit: number): AuditRecordDto {
  const cut: Record<string, number> = {};
  const text = limit === 0 ? 16 : limit;
  const field = (name: string, v: string, max = text): string => {
    const c = cutText(v, max);
    if (c === null) return v;
    cut[name] = v.length;
    return c;
  };
  const target: AuditRecordDto['target'] = {};
  // Target keys are the console's own names (actions.ts), at most 16 of them.
  for (const [k, v] of Object.entries(rec.target).slice(0, 16)) {
    target[k] = typeof v === 'string' ? field(`target.${k}`, v, limit === 0 ? 1 : text) : v;
  }
  const out: AuditRecordDto = {
    at: rec.at,
    user: field('user', rec.user),
    role: rec.role,
    action: field('action', rec.action),
    method: field('method', rec.method, 16),
    path: field('path', rec.path),
    target,
    count: rec.count,
    status: rec.status,
    code: rec.code === null ? null : field('code', rec.code),
  };
  if (rec.trimmed !== undefined) out.trimmed = rec.trimmed;
  if (Object.keys(cut).length > 0) out.cut = cut;
  return out;
}

/**
 * The record as stored and logged: every string field cut (its original length kept in
 * `cut`), at most RECORD_MAX_BYTES of UTF-8 JSON. Fields are cut to 200 characters; when
 * escapes or multi-byte characters still make the line too long, to 64, then 16, then target
 * values to their marker alone, which fits whatever the input (at most 16 target fields).
 */
export function boundRecord(rec: AuditRecordDto): { record: AuditRecordDto; line: string } {
  for (const limit of [...FIELD_LIMITS, 0]) {
    const record = cutRecord(rec, limit);
    const line = JSON.stringify(record);
    if (Buffer.byteLength(line) <= RECORD_MAX_BYTES) return { record, line };
  }
  // Unreachable by the arithmetic above; kept so that the bound holds even if a field is added.
  const record: AuditRecordDto = { ...cutRecord(rec, 0), user: '…', action: '…', path: '…', target: {} };
  return { record, line: JSON.stringify(record) };
}
