import type { ReactNode } from 'react';
import type { QueueTotalsDto } from '@/lib/contract/live-snapshot';
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

/**
 * Totals across every queue (the snapshot sums them on the server, however many queues there
 * are): the numbers that say whether anything is wrong right now. `ageSeconds` ages the oldest
 * pending task's latency since the snapshot was read.
 */
export function SummaryCards({ totals: t, ageSeconds }: { totals: QueueTotalsDto; ageSeconds: number }) {
  const rate = errorRate(t.processed, t.failed);
  const oldest = t.oldest ? t.oldest.latencySeconds + ageSeconds : null;
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
      <Card label="Queues" value={formatNumber(t.queues)} sub={t.paused > 0 ? `${t.paused} paused` : 'none paused'} />
      <Card label="Tasks" value={formatNumber(t.size)} sub={`${formatNumber(t.pending)} pending · ${formatNumber(t.active)} active`} />
      <Card label="Processed today" value={formatNumber(t.processed)} sub="UTC day" />
      <Card
        label="Failed today"
        value={formatNumber(t.failed)}
        sub={rate === null ? 'no tasks processed' : `${formatPercent(rate)} error rate`}
        tone={rate !== null && rate >= 0.05 ? 'danger' : undefined}
      />
      <Card
        label="Oldest pending"
        value={oldest !== null ? formatDuration(oldest) : '—'}
        sub={t.oldest ? `in ${t.oldest.queue}` : 'nothing waiting'}
        tone={oldest !== null && oldest >= 300 ? 'warning' : undefined}
      />
      <Card
        label="Retry · Archived"
        value={`${formatNumber(t.retry)} · ${formatNumber(t.archived)}`}
        sub="failing now · gave up"
        tone={t.archived > 0 ? 'danger' : t.retry > 0 ? 'warning' : undefined}
      />
    </div>
  );
}
