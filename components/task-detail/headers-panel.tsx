import { Panel } from '@/components/ui/panel';

/** The task's headers (asynq ≥ 0.25), keys sorted. */
export function HeadersPanel({ headers }: { headers: Record<string, string> }) {
  const entries = Object.entries(headers).sort(([a], [b]) => a.localeCompare(b));
  return (
    <Panel title={`Headers · ${entries.length}`}>
      {entries.length === 0 ? (
        <p className="text-xs text-muted">No headers.</p>
      ) : (
        <dl className="grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-4 gap-y-1 font-mono text-xs">
          {entries.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="break-all text-muted">{k}</dt>
              <dd className="break-all">{v}</dd>
            </div>
          ))}
        </dl>
      )}
    </Panel>
  );
}
