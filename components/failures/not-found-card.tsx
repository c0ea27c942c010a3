'use client';

import { Badge } from '@/components/ui/badge';
import { Link } from '@/components/ui/link';
import type { FailureGroupDto, NotFoundGroupDto } from '@/lib/contract/triage';
import { paths } from '@/lib/paths';
import { cn, formatNumber } from '@/lib/utils';
import { failedCounts } from './counts';
import { ExampleMessage, GroupFacts } from './group-facts';
import { notFoundAnchor } from './not-found-anchor';
import { NotFoundQueues } from './not-found-queues';
import type { RerunTarget } from './use-rerun-flow';
import type { Verdicts } from '@/components/verdict/use-verdicts';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';

interface Props {
  group: FailureGroupDto & { taskType: string };
  perQueue: NotFoundGroupDto[];
  verdicts: Verdicts;
  known: boolean;
  counted: boolean;
  focused: boolean;
  readOnly: boolean;
  onRerun: (target: RerunTarget) => void;
}

/**
 * A task type no worker had a handler for: what it means in plain words, what to do, the tasks
 * still waiting that will fail the same way, who listens on the queue, and the re-run.
 */
export function NotFoundCard({ group, perQueue, verdicts, known, counted, focused, readOnly, onRerun }: Props) {
  const type = group.taskType;
  const queues = perQueue.map((g) => g.queue).join(', ');
  return (
    <section
      id={notFoundAnchor(type)}
      aria-label={`No handler for ${escapeText(type)}`}
      data-testid="not-found-group"
      className={cn('scroll-mt-4 overflow-hidden rounded-lg border bg-panel', focused ? 'border-danger ring-2 ring-danger/30' : 'border-danger/30')}
    >
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-danger/20 bg-danger-soft px-3 py-2">
        <Badge tone="red">failed: no handler</Badge>
        <h3 className="min-w-0 font-mono text-sm font-semibold break-all"><SafeText text={type} /></h3>
        <span className="tabular ml-auto text-xs text-muted">
          {formatNumber(group.count)} failed: {failedCounts(group.retry, group.archived)}
        </span>
      </header>
      <div className="grid gap-4 p-3 xl:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
        <div className="flex min-w-0 flex-col gap-3">
          <div className="text-[13px]">
            <p className="font-medium">What to do</p>
            <ol className="mt-1 list-decimal space-y-1 pl-5 text-muted">
              <li>
                Register a handler for it in your worker —{' '}
                <code className="rounded bg-hover px-1 font-mono text-xs break-words text-fg">mux.HandleFunc(<SafeText text={JSON.stringify(type)} />, …)</code>, or a
                pattern that is a prefix of it (<Link href={paths.routing({ type })} className="text-accent underline underline-offset-2">see its routing</Link>)
                — and deploy it to every server that consumes <SafeText text={queues || 'its queue'} />, stopping any older release still running.

              </li>
              <li>Then re-run the failed tasks below: they go back to pending and the new worker runs them.</li>
            </ol>
          </div>
          <NotFoundQueues group={group} perQueue={perQueue} verdicts={verdicts} known={known} counted={counted} readOnly={readOnly} onRerun={onRerun} />
        </div>
        <div className="flex min-w-0 flex-col gap-3">
          <GroupFacts group={group} showTypes={false} />
          <ExampleMessage label="Stored error" message={group.exampleMessage} />
        </div>
      </div>
    </section>
  );
}
