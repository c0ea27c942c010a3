'use client';

import { Link } from '@/components/ui/link';
import { SafeText } from '@/components/ui/safe-text';
import { VerdictText } from '@/components/verdict/verdict-text';
import type { RoutingVerdictDto } from '@/lib/contract/routing-verdicts';
import { paths } from '@/lib/paths';
import { cn } from '@/lib/utils';

/**
 * Whether an enqueue of this (queue, type) should be stopped and thought about: the fleet's
 * verdict says no live or declared handler on the queue takes it, or that its servers disagree.
 */
export const warnsBeforeEnqueue = (v: RoutingVerdictDto): boolean => v.verdict === 'not_handled' || v.verdict === 'conflict';

/** The warning's first line; the verdict's own summary and evidence follow it. */
function headline(v: RoutingVerdictDto) {
  const q = <code className="font-mono"><SafeText text={v.queue} /></code>;
  const t = <code className="font-mono"><SafeText text={v.taskType} /></code>;
  return v.verdict === 'not_handled'
    ? <>No live or declared handler on {q} takes {t}: tasks enqueued now fail with handler not found and end up archived.</>
    : <>The fleet disagrees about {t} on {q}: some servers fail such tasks with handler not found.</>;
}

/**
 * Who would handle this enqueue, as the one routing verdict says (the same on Routing, Failures
 * and task detail), with a warning before a not_handled or conflict enqueue.
 */
export function EnqueueVerdict({ v, testId = 'precheck-verdict' }: { v: RoutingVerdictDto; testId?: string }) {
  const warn = warnsBeforeEnqueue(v);
  return (
    <div data-testid={testId} data-verdict={v.verdict} className="flex flex-col gap-1">
      {warn && (
        <p data-testid="enqueue-routing-warning" className={cn('text-xs font-medium', v.verdict === 'not_handled' ? 'text-danger' : 'text-warning')}>
          {headline(v)}
        </p>
      )}
      <VerdictText v={v} />
      <Link href={paths.routing({ queue: v.queue })} className="text-xs text-accent hover:underline">Open in Routing</Link>
    </div>
  );
}
