import 'server-only';
import type { AuditPageDto } from '@/lib/contract/audit';
import { listAudit } from './audit';
import { currentAccount } from './auth/current';

export type AuditPageResult =
  | { ok: true; data: AuditPageDto; enabled: boolean }
  | { ok: false; message: string };

/** The /audit page's data: a page of the log, whether recording is on, or why it cannot be read. */
export async function loadAuditPage(page: number, size: number): Promise<AuditPageResult> {
  try {
    const account = await currentAccount();
    return { ok: true, data: await listAudit(page, size), enabled: account !== null && account.mode !== 'none' };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}
