import { Panel } from '@/components/ui/panel';
import { FieldList } from './field-list';

/** The task's headers (asynq ≥ 0.25), keys sorted. */
export function HeadersPanel({ headers }: { headers: Record<string, string> }) {
  const entries = Object.entries(headers).sort(([a], [b]) => a.localeCompare(b));
  return (
    <Panel title={`Headers · ${entries.length}`}>
      {entries.length === 0 ? <p className="text-xs text-muted">No headers.</p> : <FieldList fields={entries} mono />}
    </Panel>
  );
}
