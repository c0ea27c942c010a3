'use client';

import { useMemo, useState } from 'react';
import { PageHeader } from '@/components/common/page-header';
import { Input } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { Panel } from '@/components/ui/panel';
import type { AuditPageDto } from '@/lib/contract/audit';
import { AuditTable } from './audit-table';
import { RefusalsTable } from './refusals-table';
import { SafeText } from '@/components/ui/safe-text';

type Result = { ok: true; data: AuditPageDto; enabled: boolean } | { ok: false; message: string };

const pageHref = (page: number, size: number) => `/audit?page=${page}&size=${size}`;

/** The audit log page: the loaded page, narrowed in the browser by user and action. */
export function AuditView({ result }: { result: Result }) {
  const [user, setUser] = useState('');
  const [action, setAction] = useState('');
  const records = result.ok ? result.data.records : [];
  const shown = useMemo(
    () => records.filter((r) => r.user.toLowerCase().includes(user.trim().toLowerCase()) && r.action.includes(action.trim().toLowerCase())),
    [records, user, action],
  );
  if (!result.ok) {
    return (
      <>
        <PageHeader title="Audit log" />
        <p role="alert" className="rounded-md border border-danger/30 bg-danger-soft p-3 text-[13px] text-danger">
          The audit log cannot be read: <SafeText text={result.message} />

        </p>
      </>
    );
  }
  const { page, size, total } = result.data;
  const last = Math.max(1, Math.ceil(total / size));
  return (
    <>
      <PageHeader
        title="Audit log"
        meta={
          <>
            <span>
              {total.toLocaleString('en-US')} {total === 1 ? 'record' : 'records'} kept (at most {result.data.maxRecords.toLocaleString('en-US')}), newest first
            </span>
            {!result.enabled && <span className="text-warning">· recording is off (ASYNQLENS_AUDIT=off): nothing new is recorded</span>}
          </>
        }
      />
      <Panel
        flush
        title={`Page ${page} of ${last}`}
        actions={
          <>
            <Input aria-label="Filter by user" placeholder="user" value={user} onChange={(e) => setUser(e.target.value)} className="w-36" />
            <Input aria-label="Filter by action" placeholder="action" value={action} onChange={(e) => setAction(e.target.value)} className="w-36" />
            {page > 1 && <Link href={pageHref(page - 1, size)}>Newer</Link>}
            {page < last && <Link href={pageHref(page + 1, size)}>Older</Link>}
          </>
        }
      >
        {shown.length > 0 ? (
          <AuditTable records={shown} />
        ) : (
          <p className="p-6 text-center text-[13px] text-muted">{records.length === 0 ? 'No changes recorded yet.' : 'No record on this page matches the filter.'}</p>
        )}
      </Panel>
      <RefusalsTable refusals={result.data.refusals} />
    </>
  );
}
