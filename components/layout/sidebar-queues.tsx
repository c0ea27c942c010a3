import type { QueueStatsDto } from '@/lib/contract/queues';
import { paths } from '@/lib/paths';
import { cn, formatCompact } from '@/lib/utils';
import { NavLink } from './nav-link';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';

/** Every queue, one click away, with a health dot: paused, failing (retry/archived) or fine. */
export function SidebarQueues({ queues }: { queues: QueueStatsDto[] }) {
  if (queues.length === 0) return <div className="hidden flex-1 md:block" />;
  return (
    <div className="hidden min-h-0 flex-1 flex-col md:flex">
      <p className="mt-5 mb-1 px-4 text-[11px] font-medium tracking-wide text-subtle uppercase">Queues</p>
      <ul className="min-h-0 flex-1 overflow-y-auto px-2 pb-2">
        {queues.map((q) => (
          <li key={q.queue}>
            <NavLink href={paths.queue(q.queue)} exact title={escapeText(q.queue)}>
              <span className={cn('size-1.5 shrink-0 rounded-full', q.paused ? 'bg-warning' : q.archived > 0 || q.retry > 0 ? 'bg-danger' : 'bg-success')} />
              <span className="min-w-0 flex-1 truncate"><SafeText text={q.queue} /></span>

              <span className="tabular text-[11px] text-subtle">{formatCompact(q.size)}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </div>
  );
}
