'use client';

import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import type { HeaderRow } from './enqueue-draft';

/** Header rows: name and value, added and removed one at a time. */
export function HeadersEditor({ rows, onChange, error }: { rows: HeaderRow[]; onChange: (rows: HeaderRow[]) => void; error?: string | undefined }) {
  const set = (i: number, patch: Partial<HeaderRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset data-field="headers" className="flex flex-col gap-1.5">
      <legend className="mb-1 text-xs font-medium text-muted">Headers</legend>
      {rows.map((r, i) => (
        <div key={i} className="flex gap-1.5">
          <Input aria-label={`Header ${i + 1} name`} placeholder="name" value={r.key} onChange={(e) => set(i, { key: e.target.value })} className="w-40 font-mono text-xs" />
          <Input aria-label={`Header ${i + 1} value`} placeholder="value" value={r.value} onChange={(e) => set(i, { value: e.target.value })} className="flex-1 font-mono text-xs" />
          <Button size="sm" variant="ghost" className="h-8 w-8 px-0" aria-label={`Remove header ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            <Icon name="x" size={12} />
          </Button>
        </div>
      ))}
      <div className="flex items-center gap-2">
        <Button size="sm" onClick={() => onChange([...rows, { key: '', value: '' }])}>
          <Icon name="plus" size={12} /> Add header
        </Button>
        {error ? <span role="alert" className="text-[11px] text-danger">{error}</span> : <span className="text-[11px] text-subtle">Sent with the task; handlers read them from it on asynq ≥ 0.26 (v0.25 and v0.24 servers do not see them, and drop them on retry or archive).</span>}
      </div>
    </fieldset>
  );
}
