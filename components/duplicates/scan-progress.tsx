import { formatNumber } from '@/lib/utils';

/** How far the scan got through the tasks it counted when it started; `total` null: not yet sized. */
export function ScanProgress({ scanned, total }: { scanned: number; total: number | null }) {
  const pct = total ? Math.min(100, (scanned / total) * 100) : 0;
  return (
    <div className="flex items-center gap-3 px-3 py-3">
      <div
        role="progressbar"
        aria-label="Duplicate scan"
        aria-valuemin={0}
        aria-valuemax={total ?? undefined}
        aria-valuenow={scanned}
        className="h-2 flex-1 overflow-hidden rounded-full bg-hover"
      >
        <div className="h-full rounded-full bg-accent transition-[width]" style={{ width: `${pct}%` }} />
      </div>
      <span className="tabular shrink-0 text-xs text-muted">
        {total === null ? 'Starting the scan…' : `${formatNumber(scanned)} of ${formatNumber(total)} tasks · ${Math.floor(pct)}%`}
      </span>
    </div>
  );
}
