import { StateBadge } from '@/components/tasks/state-badge';
import { plural } from '@/components/tasks/task-actions';
import { Badge } from '@/components/ui/badge';
import { Link } from '@/components/ui/link';
import { TD, TH } from '@/components/ui/table';
import { paths } from '@/lib/paths';
import type { LineResult } from './batch-send';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';

/** One row per line: the new task, or why that line was refused. */
export function BatchResults({ results }: { results: LineResult[] }) {
  const ok = results.filter((r) => r.ok).length;
  return (
    <div className="flex flex-col">
      <p role="status" className="border-b border-line px-3 py-2 text-[13px]">
        <strong>{plural(ok, 'task')} enqueued</strong>
        {results.length > ok && <span className="text-danger">, {plural(results.length - ok, 'line')} refused</span>}.
      </p>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-left text-[13px]" aria-label="Batch results">
          <thead>
            <tr>
              <TH className="w-16 text-right">Line</TH>
              <TH className="w-40">Result</TH>
              <TH>Task or reason</TH>
            </tr>
          </thead>
          <tbody>
            {results.map((r) => (
              <tr key={r.line} className="border-b border-line last:border-b-0" data-line={r.line}>
                <TD className="tabular text-right text-muted">{r.line}</TD>
                <TD>{r.ok ? <StateBadge state={r.state} /> : <Badge tone="red">{r.code}</Badge>}</TD>
                <TD className="max-w-0 truncate">
                  {r.ok ? (
                    <Link href={paths.task(r.queue, r.id)} className="font-mono text-xs text-accent hover:underline">{r.id}</Link>
                  ) : (
                    <span className="text-danger" title={escapeText(r.message)}><SafeText text={r.message} /></span>
                  )}
                  {!r.ok && r.existing && (
                    <>
                      {': '}
                      <Link href={paths.task(r.existing.queue, r.existing.id)} className="font-mono text-xs text-accent hover:underline"><SafeText text={r.existing.id} /></Link>
                    </>
                  )}
                  {r.ok && <span className="text-muted"> in <SafeText text={r.queue} /></span>}

                </TD>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
