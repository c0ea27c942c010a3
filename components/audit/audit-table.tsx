import { RelativeTime } from '@/components/common/relative-time';
import { Badge } from '@/components/ui/badge';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import type { AuditRecordDto } from '@/lib/contract/audit';
import { AuditOutcome } from './audit-outcome';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';

/** A cut value's title: its original length (the record keeps at most 200 characters of a field). */
const cutNote = (cut: AuditRecordDto['cut'], field: string) => (cut?.[field] === undefined ? '' : ` (cut from ${cut[field].toLocaleString('en-US')} characters)`);

function Target({ target, cut }: { target: AuditRecordDto['target']; cut?: AuditRecordDto['cut'] }) {
  const entries = Object.entries(target);
  if (entries.length === 0) return <span className="text-subtle">—</span>;
  return (
    <span className="flex flex-wrap gap-x-2 gap-y-0.5 font-mono text-xs">
      {entries.map(([k, v]) => (
        <span key={k} className="max-w-80 truncate" title={escapeText(`${k}: ${String(v)}${cutNote(cut, `target.${k}`)}`)}>
          <span className="text-subtle"><SafeText text={k} />=</span>
          <SafeText text={String(v)} />
        </span>
      ))}
    </span>
  );
}

export function AuditTable({ records }: { records: AuditRecordDto[] }) {
  return (
    <Table aria-label="Audit log">
      <THead>
        <TR>
          <TH>When</TH>
          <TH>Who</TH>
          <TH>Role</TH>
          <TH>Action</TH>
          <TH>Target</TH>
          <TH className="text-right">Count</TH>
          <TH>Outcome</TH>
        </TR>
      </THead>
      <TBody>
        {records.map((r, i) => (
          <TR key={`${r.at}-${i}`}>
            <TD className="whitespace-nowrap text-muted">
              <RelativeTime iso={r.at} />
            </TD>
            <TD className="font-medium"><SafeText text={r.user} /></TD>

            <TD>
              <Badge tone={r.role === 'operator' ? 'accent' : 'neutral'}>{r.role}</Badge>
            </TD>
            <TD className="font-mono text-xs" title={`${r.method} ${r.path}`}>
              {r.action}
            </TD>
            <TD>
              <Target target={r.target} cut={r.cut} />
            </TD>
            <TD className="text-right tabular-nums">{r.count.toLocaleString('en-US')}</TD>
            <TD>
              <AuditOutcome record={r} />
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
