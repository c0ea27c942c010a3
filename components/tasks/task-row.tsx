'use client';

import { Link } from '@/components/ui/link';
import { Badge } from '@/components/ui/badge';
import { Icon } from '@/components/ui/icons';
import { SafeText } from '@/components/ui/safe-text';
import { TD } from '@/components/ui/table';
import type { TaskDto, TaskStateDto } from '@/lib/contract/tasks';
import { paths } from '@/lib/paths';
import type { TaskAction } from '@/lib/contract/task-actions';
import { escapeText } from '@/lib/display-text';
import { cn, formatBytes, preview } from '@/lib/utils';
import { LockBadge } from './lock-badge';
import { StateBadge } from './state-badge';
import { TaskRowActions } from './task-row-actions';
import { TaskWhen } from './task-when';

interface Props {
  task: TaskDto;
  state: TaskStateDto;
  index: number;
  active: boolean;
  selected: boolean;
  fetchedAt: number;
  actions: TaskAction[] | null;
  onToggle: () => void;
  onOpen: () => void;
  onAction: (a: TaskAction) => void;
  /** Rows from many queues and states (search results): add the queue and state cells. */
  showPlace?: boolean;
}

function PayloadPreview({ task }: { task: TaskDto }) {
  if (task.payloadSize === 0) return <span className="text-subtle">empty</span>;
  if (task.payloadEncoding === 'base64') return <span className="text-subtle">binary · {formatBytes(task.payloadSize)}</span>;
  return <span title={task.payloadTruncated ? `${formatBytes(task.payloadSize)}, preview cut` : undefined}><SafeText text={preview(task.payload, 90)} /></span>;
}

/**
 * One task. Every string in it (type, payload, error) is untrusted and rendered as text only.
 * A task whose record is missing or corrupt is still a row, flagged with the reason.
 */
export function TaskRow({ task, state, index, active, selected, fetchedAt, actions, onToggle, onOpen, onAction, showPlace }: Props) {
  return (
    <tr
      data-row-index={index}
      data-active={active || undefined}
      aria-selected={selected}
      onClick={(e) => !(e.target as HTMLElement).closest('a,button,input') && onOpen()}
      className={cn(
        'group cursor-pointer border-b border-line last:border-b-0',
        selected ? 'bg-selected' : 'hover:bg-hover',
        active && 'shadow-[inset_2px_0_0_var(--accent)]',
        task.problem && 'bg-danger-soft',
      )}
    >
      {actions && (
        <TD className="w-8 pr-0">
          <input type="checkbox" aria-label={`Select task ${escapeText(task.id)}`} checked={selected} onChange={onToggle} className="accent-[var(--accent)]" />
        </TD>
      )}
      <TD className="max-w-36 font-mono text-xs">
        <Link href={paths.task(task.queue, task.id)} className="block truncate hover:underline" title={escapeText(task.id)}>
          <SafeText text={task.id} />
        </Link>
      </TD>
      {showPlace && (
        <>
          <TD className="max-w-32 truncate" title={escapeText(task.queue)}>
            <Link href={paths.queue(task.queue, { state: task.state })} className="hover:underline">
              <SafeText text={task.queue} />
            </Link>
          </TD>
          <TD>
            <StateBadge state={task.state} />
          </TD>
        </>
      )}
      {task.problem ? (
        <TD colSpan={6} className="text-danger">
          <span className="flex items-center gap-1.5">
            <Icon name="alert" size={13} />
            <span className="truncate" title={escapeText(task.problem)}>
              Unreadable task: <SafeText text={task.problem} />
            </span>
          </span>
        </TD>
      ) : (
        <>
          <TD className="max-w-44 truncate font-medium" title={escapeText(task.type)}>
            <SafeText text={task.type} />
          </TD>
          <TD className="max-w-64 truncate font-mono text-xs text-muted">
            <PayloadPreview task={task} />
          </TD>
          <TD className="tabular text-right whitespace-nowrap">
            <span className={task.retried > 0 ? 'text-warning' : 'text-subtle'}>{task.retried}</span>
            <span className="text-subtle"> / {task.maxRetry}</span>
          </TD>
          <TD className="max-w-56 truncate text-xs text-danger" title={escapeText(task.lastError)}>
            {task.lastError ? <SafeText text={preview(task.lastError, 200)} /> : <span className="text-subtle">—</span>}

          </TD>
          <TD className="whitespace-nowrap text-muted">
            <TaskWhen task={task} state={state} />
            {task.isOrphaned && (
              <Badge tone="red" className="ml-1.5">
                orphaned
              </Badge>
            )}
          </TD>
          <TD>{task.uniqueLock && <LockBadge lock={task.uniqueLock} fetchedAt={fetchedAt} qname={task.queue} />}</TD>
        </>
      )}
      {actions && <TD className="w-[6.5rem] px-1">{actions.length > 0 && <TaskRowActions actions={actions} onAction={onAction} />}</TD>}
    </tr>
  );
}
