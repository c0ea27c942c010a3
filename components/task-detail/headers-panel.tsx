import type { ReactNode } from 'react';
import { Panel } from '@/components/ui/panel';
import { SafeText } from '@/components/ui/safe-text';
import { FieldList } from './field-list';

/**
 * What the releases before headers do with them. asynq v0.25 and v0.24 skip field 15 when they
 * decode a message, so their handlers never see headers, and each time their server writes a
 * message back (retry, archive, completion with retention) it writes it without them.
 */
export const HEADERS_VERSION_NOTE =
  'Headers exist since asynq v0.26. A v0.25 or v0.24 server does not pass them to its handler and drops them when it retries, archives or completes the task.';

/** The task's headers (asynq ≥ 0.26), keys sorted; keys and values shown escaped (FieldList, SafeText). */
export function HeadersPanel({ headers }: { headers: Record<string, string> }) {
  const entries = Object.entries(headers).sort(([a], [b]) => a.localeCompare(b));
  const fields = entries.map(([k, v]): [string, ReactNode] => [k, <SafeText key={k} text={v} />]);
  return (
    <Panel title={`Headers · ${entries.length}`}>
      {entries.length === 0 ? <p className="text-xs text-muted">No headers.</p> : <FieldList fields={fields} mono />
}
      <p className="mt-2 text-xs text-muted" data-testid="headers-version-note">
        {HEADERS_VERSION_NOTE}
      </p>
    </Panel>
  );
}
