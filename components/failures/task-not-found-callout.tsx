import { Icon } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';
import type { TaskDto } from '@/lib/contract/tasks';
import { paths } from '@/lib/paths';
import { SafeText } from '@/components/ui/safe-text';

/**
 * On a task that failed because no worker had a handler for its type: what that means, and the
 * way to its group on /failures (every task that failed the same way, and the re-run).
 */
export function TaskNotFoundCallout({ task }: { task: TaskDto }) {
  if ((task.state !== 'retry' && task.state !== 'archived') || !task.handlerNotFound) return null;
  return (
    <div role="note" data-testid="task-not-found" className="flex items-start gap-2 rounded-lg border border-warning/40 bg-warning-soft px-3 py-2 text-[13px]">
      <Icon name="alert" size={15} className="mt-0.5 shrink-0 text-warning" />
      <div className="min-w-0">
        <p>
          <strong className="font-semibold">The server that took this task had no handler for <span className="font-mono break-all"><SafeText text={task.type} /></span>.</strong>{' '}
          What the fleet does with the type now is under Routing. Once every server consuming its queue has the handler, re-run this task or every task
          that failed the same way.
        </p>
        <Link href={paths.failures({ queue: task.queue, type: task.type })} className="mt-1 inline-block font-medium text-accent hover:underline">
          See every <SafeText text={task.type} /> task
 that found no handler, and re-run them →
        </Link>
      </div>
    </div>
  );
}
