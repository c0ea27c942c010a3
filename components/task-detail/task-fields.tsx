'use client';

import type { ReactNode } from 'react';
import { Link } from '@/components/ui/link';
import { ExactTime } from '@/components/common/exact-time';
import { Badge } from '@/components/ui/badge';
import { Panel } from '@/components/ui/panel';
import type { TaskDto } from '@/lib/contract/tasks';
import { paths } from '@/lib/paths';
import { formatDuration } from '@/lib/utils';
import { StateBadge } from '@/components/tasks/state-badge';
import { FieldList } from './field-list';
import { SafeText } from '@/components/ui/safe-text';

const none = <span className="text-subtle">—</span>;

/** Where the task is and what happened to it: state, retries, last failure, timing. */
export function TaskFields({ task }: { task: TaskDto }) {
  return (
    <Panel title="Details">
      <FieldList
        fields={[
          ['State', <span key="s" className="flex items-center gap-1.5"><StateBadge state={task.state} />{task.isOrphaned && <Badge tone="red">orphaned: lease expired</Badge>}</span>],
          ['Queue', <Link key="q" href={paths.queue(task.queue, { state: task.state })} className="text-accent hover:underline"><SafeText text={task.queue} /></Link>],
          ['Group', task.group !== null ? <SafeText key="g" text={task.group} /> : none],
          ['Retried', <span key="r" className="tabular">{task.retried} of {task.maxRetry}</span>],
          ['Last error', task.lastError ? <span key="e" className="font-mono text-xs break-all whitespace-pre-wrap text-danger"><SafeText text={task.lastError} keepLineBreaks /></span> : none],

          ['Last failed', <ExactTime key="lf" iso={task.lastFailedAt} />],
          ['Next attempt', task.state === 'pending' ? <span key="n">ready: waiting for a worker</span> : task.state === 'active' ? <span key="n">running now</span> : <ExactTime key="n" iso={task.nextProcessAt} />],
          ['Timeout', task.timeoutSeconds > 0 ? formatDuration(task.timeoutSeconds) : none],
          ['Deadline', <ExactTime key="d" iso={task.deadline} />],
          ['Completed', <ExactTime key="c" iso={task.completedAt} />],
          ['Retention', task.retentionSeconds > 0 ? formatDuration(task.retentionSeconds) : none],
          ...(task.expiresAt !== null ? [['Kept until', <ExactTime key="k" iso={task.expiresAt} />] satisfies [string, ReactNode]] : []),
        ]}
      />
    </Panel>
  );
}
