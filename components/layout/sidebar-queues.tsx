'use client';

import { useLiveShell } from '@/lib/query/live-snapshot';
import type { LiveSeed } from '@/lib/query/live-view';
import { paths } from '@/lib/paths';
import { cn, formatCompact, formatNumber } from '@/lib/utils';
import { Link } from '@/components/ui/link';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';
import { NavLink } from './nav-link';

/**
 * The queues, one click away, with a health dot: paused, failing (retry/archived) or fine. A
 * few dozen fit; past that (the snapshot says `attentionOnly`) only the queues needing attention
 * are listed, with a filter box and a link to every queue in the overview's paged table.
 */
export function SidebarQueues({ seed }: { seed: LiveSeed }) {
  const { snapshot } = useLiveShell(seed);
  const { queues, attentionOnly } = snapshot.sidebar;
  const count = snapshot.totals?.queues ?? 0;
  if (count === 0) return <div className="hidden flex-1 md:block" />;
  return (
    <div className="hidden min-h-0 flex-1 flex-col md:flex">
      <p className="mt-5 mb-1 px-4 text-[11px] font-medium tracking-wide text-subtle uppercase">{attentionOnly ? 'Queues needing attention' : 'Queues'}</p>
      {attentionOnly && (
        <form action={paths.overview()} className="px-2 pb-1" role="search">
          <input
            name="q"
            type="search"
            aria-label="Filter queues"
            placeholder={`Filter ${formatNumber(count)} queues…`}
            className="h-7 w-full rounded-md border border-line-strong bg-panel px-2 text-[12px] placeholder:text-subtle"
          />
        </form>
      )}
      <ul className="min-h-0 flex-1 overflow-y-auto px-2 pb-2">
        {queues.map((q) => (
          <li key={q.queue}>
            <NavLink href={paths.queue(q.queue)} exact title={escapeText(q.queue)}>
              <span className={cn('size-1.5 shrink-0 rounded-full', q.paused ? 'bg-warning' : q.failing ? 'bg-danger' : 'bg-success')} />
              <span className="min-w-0 flex-1 truncate"><SafeText text={q.queue} /></span>

              <span className="tabular text-[11px] text-subtle">{formatCompact(q.size)}</span>
            </NavLink>
          </li>
        ))}
        {attentionOnly && queues.length === 0 && <li className="px-2 py-1 text-[12px] text-subtle">None: no queue is paused or failing.</li>}
      </ul>
      {attentionOnly && (
        <Link href={paths.overview()} className="px-4 pb-2 text-[12px] text-muted hover:text-fg hover:underline">
          All {formatNumber(count)} queues →
        </Link>
      )}
    </div>
  );
}
