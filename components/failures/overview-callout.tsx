import { RefreshWhile } from '@/components/overview/refresh-while';
import { plural } from '@/components/tasks/task-actions';
import { Icon } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';
import type { RoutingVerdictDto } from '@/lib/contract/routing-verdicts';
import type { ActiveRerunDto, NotFoundGroupDto } from '@/lib/contract/triage';
import { VerdictText } from '@/components/verdict/verdict-text';
import { paths } from '@/lib/paths';
import { formatNumber } from '@/lib/utils';
import { failedCounts } from './counts';
import { SafeText } from '@/components/ui/safe-text';

const SHOWN = 3;
/** How often the banner re-renders while a re-run runs or the failures are recounted. */
const REFRESH_MS = 2000;

interface Banner {
  groups: NotFoundGroupDto[];
  recounting: boolean;
  reruns: ActiveRerunDto[];
  verdicts: RoutingVerdictDto[];
}

function RerunProgress({ r }: { r: ActiveRerunDto }) {
  const p = r.progress;
  const what = !p ? 'starting' : p.phase === 'scanning' ? `finding ${p.state} tasks` : `moved ${formatNumber(p.done)} of ${formatNumber(p.total)} ${p.state}`;
  return <span data-testid="banner-rerun" className="text-xs font-medium text-accent"> · re-running: {what}</span>;
}

/**
 * The overview's pointer to the classic deploy-order incident: tasks whose type no worker had a
 * handler for. Server-rendered; it links to each group on /failures. A type stays listed
 * through its re-run (with the re-run's progress) until its failures are gone: while a new scan
 * recounts, the last finished one is shown, and the banner re-renders itself until it is done.
 */
export function NotFoundCallout({ banner }: { banner: Banner }) {
  const { groups, recounting, reruns, verdicts } = banner;
  const verdictOf = (g: NotFoundGroupDto) => verdicts.find((v) => v.queue === g.queue && v.taskType === g.taskType);
  const rerunOf = (g: NotFoundGroupDto) => reruns.find((r) => r.queue === g.queue && r.taskType === g.taskType);
  const busy = recounting || reruns.length > 0;
  if (groups.length === 0) return busy ? <RefreshWhile ms={REFRESH_MS} /> : null;
  const failed = groups.reduce((n, g) => n + g.retry + g.archived, 0);
  const waiting = groups.reduce((n, g) => n + g.pending + g.scheduled, 0);
  // The groups being re-run first: the one the viewer is watching.
  const shown = [...groups].sort((a, b) => Number(!!rerunOf(b)) - Number(!!rerunOf(a))).slice(0, Math.max(SHOWN, reruns.length));
  return (
    <section aria-label="Tasks with no handler" data-testid="not-found-callout" className="flex items-start gap-2.5 rounded-lg border border-danger/30 bg-danger-soft px-3 py-2.5 text-[13px]">
      {busy && <RefreshWhile ms={REFRESH_MS} />}
      <Icon name="alert" size={15} className="mt-0.5 shrink-0 text-danger" />
      <div className="flex min-w-0 flex-col gap-1.5">
        <p>
          <strong className="font-semibold text-danger">{plural(failed, 'task')} failed because no worker had a handler for their type.</strong>{' '}
          A server without the handler took them: clients deployed before the workers, or an older release still consuming the queue.
          {waiting > 0 && ` ${plural(waiting, 'more task')} of these types ${waiting === 1 ? 'is' : 'are'} waiting and will be handed to the same servers.`}
          {recounting && <span className="text-muted"> Recounting after a change: these are the last finished counts.</span>}
        </p>
        <ul className="flex flex-col gap-0.5">
          {shown.map((g) => {
            const r = rerunOf(g);
            const v = verdictOf(g);
            return (
              <li key={`${g.queue}\n${g.taskType}`} className="min-w-0" data-testid="banner-type" data-type={g.taskType}>
                <Link href={paths.failures({ queue: g.queue, type: g.taskType })} className="font-mono text-xs break-all text-accent hover:underline">
                  <SafeText text={g.taskType} />
                </Link>
                <span className="text-xs text-muted">
                  {' '}
                  in <SafeText text={g.queue} /> · {failedCounts(g.retry, g.archived)}
                  {g.pending + g.scheduled > 0 && ` · ${formatNumber(g.pending + g.scheduled)} waiting`}
                </span>
                {r && <RerunProgress r={r} />}
                {v && <VerdictText v={v} className="mt-0.5 mb-1" />}
              </li>
            );
          })}
          {groups.length > shown.length && <li className="text-xs text-muted">and {plural(groups.length - shown.length, 'more group')}</li>}
        </ul>
        <Link href={paths.failures()} className="self-start font-medium text-accent hover:underline">
          See why, and re-run them →
        </Link>
      </div>
    </section>
  );
}
