import { StateBadge } from '@/components/tasks/state-badge';
import { plural } from '@/components/tasks/task-actions';
import { Badge } from '@/components/ui/badge';
import { Link } from '@/components/ui/link';
import { TD, TH } from '@/components/ui/table';
import { paths } from '@/lib/paths';
import type { LineResult } from './batch-send';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';
import { cn } from '@/lib/utils';
import { ArchivedTaskInTheWay } from './archived-in-the-way';

interface Replace {
  /** Deletes the archived task in a line's way and enqueues the line (the single enqueue's route); absent read-only. */
  onReplace: ((line: number) => void) | undefined;
  /** The line being replaced now, if any. */
  replacing: number | null;
}

/**
 * One row per line: the new task, or why that line was refused; a line refused by an archived
 * task's ID offers the single enqueue's "delete the archived task and enqueue", confirmed.
 */
export function BatchResults({ results, onReplace, replacing }: { results: LineResult[] } & Replace) {
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
                <TD className={cn('max-w-0', !r.ok && r.existing?.archived ? 'break-words' : 'truncate')}>
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
                  {r.ok && r.replacedArchived && <span className="text-muted">, after deleting the archived task with its ID</span>}
                  {!r.ok && r.existing?.archived && r.item && (
                    <ArchivedTaskInTheWay queue={r.existing.queue} id={r.existing.id} archived={r.existing.archived} holds="id"
                      pending={replacing === r.line} onReplace={onReplace && (() => onReplace(r.line))} />
                  )}

                </TD>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
