import { formatTimestamp } from '@/lib/utils';
import { RelativeTime } from './relative-time';

/**
 * An exact time as the console writes every one, "2026-11-30 03:10:16 UTC (3h ago)": the UTC
 * time (the same form as the times inside verdict summaries and the API) with how long ago it
 * was, ticking. One form for every surface, so two times on a screen never read in two zones.
 */
export function ExactTime({ iso }: { iso: string | null }) {
  if (!iso) return <span className="text-subtle">—</span>;
  return (
    <span>
      <time dateTime={iso}>{formatTimestamp(iso)}</time> <span className="text-muted">(<RelativeTime iso={iso} />)</span>
    </span>
  );
}
