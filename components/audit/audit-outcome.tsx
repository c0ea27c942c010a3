import { Badge } from '@/components/ui/badge';
import type { AuditRecordDto } from '@/lib/contract/audit';

/** done (2xx), refused (401/403/405/409/415/429: the request was not allowed), or failed. */
export function outcomeOf(r: AuditRecordDto): 'done' | 'refused' | 'failed' {
  if (r.status >= 200 && r.status < 300 && r.code === null) return 'done';
  if ([401, 403, 405, 409, 415, 429].includes(r.status)) return 'refused';
  return 'failed';
}

export function AuditOutcome({ record }: { record: AuditRecordDto }) {
  const outcome = outcomeOf(record);
  const tone = outcome === 'done' ? 'green' : outcome === 'refused' ? 'amber' : 'red';
  return (
    <span className="inline-flex items-center gap-1.5">
      <Badge tone={tone}>{outcome}</Badge>
      {record.code && <code className="text-[11px] text-muted">{record.code}</code>}
    </span>
  );
}
