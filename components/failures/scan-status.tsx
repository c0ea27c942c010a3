import { formatNumber } from '@/lib/utils';

interface Props {
  /** The progress bar's accessible name ("Failure scan"). */
  label: string;
  scanned: number;
  total: number;
  /** What is being read, e.g. "retry and archived tasks". */
  what: string;
}

/**
 * How far a server-side scan got. Shown while the scan runs; the groups below it are the ones
 * found so far.
 */
export function ScanStatus({ label, scanned, total, what }: Props) {
  const pct = total > 0 ? Math.min(100, (scanned / total) * 100) : 0;
  return (
    <div className="flex items-center gap-3 px-3 py-2.5">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={scanned}
        className="h-1.5 flex-1 overflow-hidden rounded-full bg-hover"
      >
        <div className="h-full rounded-full bg-accent transition-[width]" style={{ width: `${pct}%` }} />
      </div>
      <span className="tabular shrink-0 text-xs text-muted">
        Reading {what}: {formatNumber(Math.min(scanned, total))} of {formatNumber(total)} · {Math.floor(pct)}%
      </span>
    </div>
  );
}
