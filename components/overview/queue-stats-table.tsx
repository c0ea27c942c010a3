import { Link } from '@/components/ui/link';
import { Badge } from '@/components/ui/badge';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import type { QueueStatsDto } from '@/lib/contract/queues';
import type { TaskStateDto } from '@/lib/contract/tasks';
import { paths } from '@/lib/paths';
import { cn, errorRate, formatBytes, formatDuration, formatNumber, formatPercent } from '@/lib/utils';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';

const STATES: TaskStateDto[] = ['pending', 'active', 'scheduled', 'retry', 'archived', 'completed', 'aggregating'];
const ALERT: Partial<Record<TaskStateDto, string>> = { retry: 'text-warning', archived: 'text-danger' };

function Count({ qname, state, n }: { qname: string; state: TaskStateDto; n: number }) {
  if (n === 0) return <span className="text-subtle">0</span>;
  return (
    <Link href={paths.queue(qname, { state })} className={cn('hover:underline', ALERT[state])}>
      {formatNumber(n)}
    </Link>
  );
}

/** Every queue with its size per state, today's counters, error rate and latency; totals last. */
export function QueueStatsTable({ queues }: { queues: QueueStatsDto[] }) {
  const total = (f: (q: QueueStatsDto) => number) => queues.reduce((n, q) => n + f(q), 0);
  const tp = total((q) => q.processed);
  const tf = total((q) => q.failed);
  return (
    <Table aria-label="Queues">
      <THead>
        <tr>
          <TH>Queue</TH>
          {STATES.map((s) => (
            <TH key={s} className="text-right">
              {s}
            </TH>
          ))}
          <TH className="text-right">Processed</TH>
          <TH className="text-right">Failed</TH>
          <TH className="text-right">Error rate</TH>
          <TH className="text-right">Latency</TH>
          <TH className="text-right">Memory</TH>
        </tr>
      </THead>
      <TBody>
        {queues.map((q) => {
          const rate = errorRate(q.processed, q.failed);
          return (
            <TR key={q.queue} className="hover:bg-hover">
              <TD className="max-w-64">
                <div className="flex items-center gap-2">
                  <Link href={paths.queue(q.queue)} className="truncate font-medium hover:underline" title={escapeText(q.queue)}>
                    <SafeText text={q.queue} />
                  </Link>
                  {q.paused && <Badge tone="amber">paused</Badge>}
                  {q.problem && (
                    <span title={escapeText(q.problem)}>

                      <Badge tone="red">unreadable</Badge>
                    </span>
                  )}
                </div>
              </TD>
              {STATES.map((s) => (
                <TD key={s} className="tabular text-right">
                  <Count qname={q.queue} state={s} n={q[s]} />
                </TD>
              ))}
              <TD className="tabular text-right">{formatNumber(q.processed)}</TD>
              <TD className={cn('tabular text-right', q.failed > 0 ? 'text-danger' : 'text-subtle')}>{formatNumber(q.failed)}</TD>
              <TD className={cn('tabular text-right', rate !== null && rate >= 0.05 && 'font-medium text-danger')}>
                {rate === null ? <span className="text-subtle">—</span> : formatPercent(rate)}
              </TD>
              <TD className={cn('tabular text-right', q.latencySeconds >= 300 ? 'text-warning' : q.pending === 0 && 'text-subtle')}>
                {q.pending > 0 ? formatDuration(q.latencySeconds) : '—'}
              </TD>
              <TD className="tabular text-right text-muted">{formatBytes(q.memoryUsageBytes)}</TD>
            </TR>
          );
        })}
      </TBody>
      <tfoot>
        <tr className="border-t border-line-strong bg-bg-subtle font-medium">
          <TD>Total</TD>
          {STATES.map((s) => (
            <TD key={s} className="tabular text-right">
              {formatNumber(total((q) => q[s]))}
            </TD>
          ))}
          <TD className="tabular text-right">{formatNumber(tp)}</TD>
          <TD className="tabular text-right">{formatNumber(tf)}</TD>
          <TD className="tabular text-right">{tp > 0 ? formatPercent(tf / tp) : '—'}</TD>
          <TD className="tabular text-right">{formatDuration(Math.max(0, ...queues.map((q) => q.latencySeconds)))}</TD>
          <TD className="tabular text-right text-muted">{queues.some((q) => q.memoryUsageBytes !== null) ? formatBytes(total((q) => q.memoryUsageBytes ?? 0)) : '—'}</TD>
        </tr>
      </tfoot>
    </Table>
  );
}
