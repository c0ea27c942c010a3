'use client';

import { Link } from '@/components/ui/link';
import { Panel } from '@/components/ui/panel';
import { useVerdict } from '@/components/verdict/use-verdicts';
import { VerdictText } from '@/components/verdict/verdict-text';
import type { TaskDto } from '@/lib/contract/tasks';
import { paths } from '@/lib/paths';

/** What the fleet does with this task's type in its queue: the verdict every page shows. */
export function TaskRoutingPanel({ task }: { task: TaskDto }) {
  const { verdict: v, failed } = useVerdict(task.queue, task.type);
  let body;
  if (v) body = <VerdictText v={v} open={v.verdict === 'conflict' || v.verdict === 'not_handled'} />;
  else body = <p className="text-xs text-muted">{failed ? 'The routing verdict could not be read.' : 'Reading the routing verdict…'}</p>;
  return (
    <Panel title="Routing" aria-label="Routing verdict">
      <div className="flex flex-col gap-2" data-testid="task-routing">
        {body}
        <Link href={paths.routing({ queue: task.queue, type: task.type })} className="self-start text-xs text-accent hover:underline">
          Every queue&apos;s verdict for this type →
        </Link>
      </div>
    </Panel>
  );
}
