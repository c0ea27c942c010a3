import type { ReactNode } from 'react';
import { Panel } from '@/components/ui/panel';
import { SafeText } from '@/components/ui/safe-text';
import { FieldList } from './field-list';

/** The task's headers (asynq ≥ 0.25), keys sorted; keys and values shown escaped (FieldList, SafeText). */
export function HeadersPanel({ headers }: { headers: Record<string, string> }) {
  const entries = Object.entries(headers).sort(([a], [b]) => a.localeCompare(b));
  const fields = entries.map(([k, v]): [string, ReactNode] => [k, <SafeText key={k} text={v} />]);
  return (
    <Panel title={`Headers · ${entries.length}`}>
      {entries.length === 0 ? <p className="text-xs text-muted">No headers.</p> : <FieldList fields={fields} mono />
}
    </Panel>
  );
}
