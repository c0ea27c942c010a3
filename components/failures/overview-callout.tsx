import { plural } from '@/components/tasks/task-actions';
import { Icon } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';
import type { NotFoundGroupDto } from '@/lib/contract/triage';
import { paths } from '@/lib/paths';
import { formatNumber } from '@/lib/utils';
import { failedCounts } from './counts';
import { SafeText } from '@/components/ui/safe-text';

const SHOWN = 3;

/**
 * The overview's pointer to the classic deploy-order incident: tasks whose type no worker had a
 * handler for. Server-rendered (no script of its own); it links to each group on /failures.
 */
export function NotFoundCallout({ groups }: { groups: NotFoundGroupDto[] }) {
  if (groups.length === 0) return null;
  const failed = groups.reduce((n, g) => n + g.retry + g.archived, 0);
  const waiting = groups.reduce((n, g) => n + g.pending + g.scheduled, 0);
  return (
    <section aria-label="Tasks with no handler" data-testid="not-found-callout" className="flex items-start gap-2.5 rounded-lg border border-danger/30 bg-danger-soft px-3 py-2.5 text-[13px]">
      <Icon name="alert" size={15} className="mt-0.5 shrink-0 text-danger" />
      <div className="flex min-w-0 flex-col gap-1.5">
        <p>
          <strong className="font-semibold text-danger">{plural(failed, 'task')} failed because no worker had a handler for their type.</strong>{' '}
          Usually clients were deployed before the workers that handle it.
          {waiting > 0 && ` ${plural(waiting, 'more task')} of these types ${waiting === 1 ? 'is' : 'are'} waiting and will fail the same way.`}
        </p>
        <ul className="flex flex-col gap-0.5">
          {groups.slice(0, SHOWN).map((g) => (
            <li key={`${g.queue}\n${g.taskType}`} className="min-w-0">
              <Link href={paths.failures({ queue: g.queue, type: g.taskType })} className="font-mono text-xs break-all text-accent hover:underline">
                <SafeText text={g.taskType} />
              </Link>
              <span className="text-xs text-muted">
                {' '}
                in <SafeText text={g.queue} /> ·
 {failedCounts(g.retry, g.archived)}
                {g.pending + g.scheduled > 0 && ` · ${formatNumber(g.pending + g.scheduled)} waiting`}
              </span>
            </li>
          ))}
          {groups.length > SHOWN && <li className="text-xs text-muted">and {plural(groups.length - SHOWN, 'more group')}</li>}
        </ul>
        <Link href={paths.failures()} className="self-start font-medium text-accent hover:underline">
          See why, and re-run them →
        </Link>
      </div>
    </section>
  );
}
