import 'server-only';
import type { AuditPageDto } from '@/lib/contract/audit';
import { auditEnabled, listAudit } from './log';

export type AuditPageResult =
  | { ok: true; data: AuditPageDto; enabled: boolean }
  | { ok: false; message: string };

/** The /audit page's data: a page of the log, whether recording is on, or why it cannot be read. */
export async function loadAuditPage(page: number, size: number): Promise<AuditPageResult> {
  try {
    return { ok: true, data: await listAudit(page, size), enabled: auditEnabled() };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}
