import type { Metadata } from 'next';
import { AuditView } from '@/components/audit/audit-view';
import { auditQuery } from '@/lib/contract/audit';
import { loadAuditPage } from '@/lib/server/audit/page';

export const metadata: Metadata = { title: 'Audit log' };
export const dynamic = 'force-dynamic';

/**
 * Every mutation request, newest first, one page per load (server-rendered from the same
 * service GET /api/audit uses); the filter narrows the loaded page in the browser.
 */
export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const parsed = auditQuery.safeParse({ page: sp.page, size: sp.size });
  const { page, size } = parsed.success ? parsed.data : { page: 1, size: 100 };
  const result = await loadAuditPage(page, size);
  return <AuditView result={result} />;
}
