import type { ReactNode } from 'react';
import type { QueueStatsDto } from '@/lib/contract/queues';
import { cn, errorRate, formatDuration, formatNumber, formatPercent } from '@/lib/utils';
import { SafeText } from '@/components/ui/safe-text';

function Card({ label, value, sub, tone }: { label: string; value: ReactNode; sub?: ReactNode; tone?: 'danger' | 'warning' }) {
  return (
    <div className="rounded-lg border border-line bg-panel px-3 py-2.5">
      <p className="text-[11px] font-medium tracking-wide text-muted uppercase">{label}</p>
      <p className={cn('tabular mt-1 text-xl font-semibold tracking-tight', tone === 'danger' && 'text-danger', tone === 'warning' && 'text-warning')}>
        {value}
      </p>
      {sub && <p className="mt-0.5 truncate text-xs text-muted">{typeof sub === 'string' ? <SafeText text={sub} /> : sub}</p>}

    </div>
  );
}

/** Totals across every queue: the numbers that say whether anything is wrong right now. */
export function SummaryCards({ queues }: { queues: QueueStatsDto[] }) {
  const sum = (f: (q: QueueStatsDto) => number) => queues.reduce((n, q) => n + f(q), 0);
  const processed = sum((q) => q.processed);
  const failed = sum((q) => q.failed);
  const rate = errorRate(processed, failed);
  const paused = queues.filter((q) => q.paused).length;
  const oldest = queues.reduce<QueueStatsDto | null>((a, q) => (q.latencySeconds > (a?.latencySeconds ?? 0) ? q : a), null);
  const retry = sum((q) => q.retry);
  const archived = sum((q) => q.archived);
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
      <Card label="Queues" value={formatNumber(queues.length)} sub={paused > 0 ? `${paused} paused` : 'none paused'} />
      <Card label="Tasks" value={formatNumber(sum((q) => q.size))} sub={`${formatNumber(sum((q) => q.pending))} pending · ${formatNumber(sum((q) => q.active))} active`} />
      <Card label="Processed today" value={formatNumber(processed)} sub="UTC day" />
      <Card
        label="Failed today"
        value={formatNumber(failed)}
        sub={rate === null ? 'no tasks processed' : `${formatPercent(rate)} error rate`}
        tone={rate !== null && rate >= 0.05 ? 'danger' : undefined}
      />
      <Card
        label="Oldest pending"
        value={oldest ? formatDuration(oldest.latencySeconds) : '—'}
        sub={oldest ? `in ${oldest.queue}` : 'nothing waiting'}
        tone={oldest && oldest.latencySeconds >= 300 ? 'warning' : undefined}
      />
      <Card
        label="Retry · Archived"
        value={`${formatNumber(retry)} · ${formatNumber(archived)}`}
        sub="failing now · gave up"
        tone={archived > 0 ? 'danger' : retry > 0 ? 'warning' : undefined}
      />
    </div>
  );
}
