import { Link } from '@/components/ui/link';
import { Badge } from '@/components/ui/badge';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import type { QueueTotalsDto } from '@/lib/contract/live-snapshot';
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

interface Props {
  /** The page of queues shown. */
  queues: QueueStatsDto[];
  /** Every queue's totals (all of them, not only this page's). */
  totals: QueueTotalsDto;
  /** Seconds since the snapshot was read: latencies are aged by it. */
  ageSeconds: number;
}

/** Queues with their size per state, today's counters, error rate and latency; every queue's totals last. */
export function QueueStatsTable({ queues, totals, ageSeconds }: Props) {
  const tp = totals.processed;
  const tf = totals.failed;
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
            <TR key={q.queue} className={cn('hover:bg-hover', q.problem && 'bg-danger-soft')}>
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
                {q.problem && (
                  <div className="truncate text-xs text-danger" title={q.problem} data-testid="queue-unreadable">
                    {q.unreadable ? `${q.unreadable.key}: ${q.unreadable.found}, expected ${q.unreadable.expected}` : q.problem}
                  </div>
                )}
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
              <TD className={cn('tabular text-right', q.pending > 0 && q.latencySeconds + ageSeconds >= 300 ? 'text-warning' : q.pending === 0 && 'text-subtle')}>
                {q.pending > 0 ? formatDuration(q.latencySeconds + ageSeconds) : '—'}
              </TD>
              <TD className="tabular text-right text-muted">{formatBytes(q.memoryUsageBytes)}</TD>
            </TR>
          );
        })}
      </TBody>
      <tfoot>
        <tr className="border-t border-line-strong bg-bg-subtle font-medium">
          <TD>{totals.queues > queues.length ? `Total, all ${formatNumber(totals.queues)} queues` : 'Total'}</TD>
          {STATES.map((s) => (
            <TD key={s} className="tabular text-right">
              {formatNumber(totals[s])}
            </TD>
          ))}
          <TD className="tabular text-right">{formatNumber(tp)}</TD>
          <TD className="tabular text-right">{formatNumber(tf)}</TD>
          <TD className="tabular text-right">{tp > 0 ? formatPercent(tf / tp) : '—'}</TD>
          <TD className="tabular text-right">{formatDuration(totals.oldest ? totals.oldest.latencySeconds + ageSeconds : 0)}</TD>
          <TD className="tabular text-right text-muted">{totals.memoryUsageBytes !== null ? formatBytes(totals.memoryUsageBytes) : '—'}</TD>
        </tr>
      </tfoot>
    </Table>
  );
}
