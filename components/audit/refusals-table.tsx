import { RoleBadge } from '@/components/auth/role-badge';
import { RelativeTimeCell } from '@/components/common/relative-time';
import { Panel } from '@/components/ui/panel';
import { HeadRow, Table, TBody, TD, TR } from '@/components/ui/table';
import type { AuditRefusalDto } from '@/lib/contract/audit';

/** `2026-12-01T02:00:00.000Z` → `12-01 02:00 UTC`: a window is an hour. */
const hourOf = (iso: string) => `${iso.slice(5, 10)} ${iso.slice(11, 16)} UTC`;

/**
 * Refused mutation requests of the last 24 hours, counted per hour, principal and route (kept
 * apart from the record of changes, so they never push it out). An overflow row counts the
 * principals and routes beyond what one hour may hold.
 */
export function RefusalsTable({ refusals }: { refusals: AuditRefusalDto[] }) {
  return (
    <Panel flush title="Refused requests, last 24 hours">
      {refusals.length === 0 ? (
        <p className="p-6 text-center text-[13px] text-muted">No request was refused.</p>
      ) : (
        <Table aria-label="Refused requests">
          <HeadRow headings={['Hour', 'Who', 'Route', { label: 'Count', className: 'text-right' }, 'Last', 'Last code']} />
          <TBody>
            {refusals.map((r) => (
              <TR key={`${r.window}-${r.overflow ? '*' : `${r.user}-${r.method}-${r.route}`}`}>
                <TD className="whitespace-nowrap text-muted">{hourOf(r.window)}</TD>
                <TD className="font-medium">
                  {r.overflow ? (
                    <span title={`more principals and routes than one hour holds, counted together; the last was ${r.user} on ${r.method} ${r.route}`}>others</span>
                  ) : (
                    <span className="inline-flex items-center gap-1.5">
                      {r.user}
                      <RoleBadge role={r.role} />
                    </span>
                  )}
                </TD>
                <TD className="font-mono text-xs">{r.overflow ? '—' : `${r.method} ${r.route}`}</TD>
                <TD className="text-right tabular-nums">{r.count.toLocaleString('en-US')}</TD>
                <RelativeTimeCell iso={r.last} />
                <TD>
                  <code className="text-[11px] text-muted">{r.code ?? `http_${r.status}`}</code>
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
    </Panel>
  );
}
