'use client';

import { CopyButton } from '@/components/common/copy-button';
import { RelativeTime } from '@/components/common/relative-time';
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
  /** The completed tab: add the result and the time asynq deletes the task. */
  showCompletion?: boolean;
  /** Opens the new-time dialog; given for scheduled and retry tasks. */
  onReschedule?: (() => void) | undefined;
}

/**
 * Bytes the API sent as `{ text, encoding }` (a payload or a result) on one line: the text
 * (JSON is text) or, for anything that is not UTF-8, that it is binary and its size; the task
 * page shows either in full, as a tree, text or hex dump.
 */
function BytesPreview({ text, encoding, size, truncated }: { text: string; encoding: 'utf8' | 'base64'; size: number; truncated: boolean }) {
  if (size === 0) return <span className="text-subtle">empty</span>;
  if (encoding === 'base64') return <span className="text-subtle">binary · {formatBytes(size)}</span>;
  return <span title={truncated ? `${formatBytes(size)}, preview cut` : undefined}><SafeText text={preview(text, 90)} /></span>;
}

/** Bytes of a base64 text, without decoding it. */
const base64Size = (b64: string): number => Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);

function ResultPreview({ task }: { task: TaskDto }) {
  if (task.result === null || task.resultEncoding === null) return <span className="text-subtle">—</span>;
  const size = task.resultEncoding === 'base64' ? base64Size(task.result) : new TextEncoder().encode(task.result).length;
  return <BytesPreview text={task.result} encoding={task.resultEncoding} size={size} truncated={false} />;
}

/**
 * One task. Every string in it (type, payload, error) is untrusted and rendered as text only.
 * A task whose record is missing or corrupt is still a row, flagged with the reason.
 */
export function TaskRow({ task, state, index, active, selected, fetchedAt, actions, onToggle, onOpen, onAction, showPlace, showCompletion, onReschedule }: Props) {
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
      {/* The whole ID from 1280 px up; cut below, where the copy button still takes it whole. */}
      <TD className="font-mono text-xs">
        <span className="flex items-center gap-0.5">
          <Link href={paths.task(task.queue, task.id)} className="block max-w-32 truncate hover:underline xl:max-w-none xl:whitespace-nowrap" title={escapeText(task.id)}>
            <SafeText text={task.id} />
          </Link>
          <CopyButton text={task.id} label={`Copy task ID ${escapeText(task.id)}`} iconOnly />
        </span>
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
        <TD colSpan={showCompletion ? 8 : 6} className="text-danger">
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
            <BytesPreview text={task.payload} encoding={task.payloadEncoding} size={task.payloadSize} truncated={task.payloadTruncated} />
          </TD>
          {showCompletion && (
            <TD className="max-w-64 truncate font-mono text-xs text-muted" data-testid="task-result">
              <ResultPreview task={task} />
            </TD>
          )}
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
          {showCompletion && (
            <TD className="whitespace-nowrap text-muted" data-testid="task-kept-until">
              <RelativeTime iso={task.expiresAt} />
            </TD>
          )}
          <TD>{task.uniqueLock && <LockBadge lock={task.uniqueLock} fetchedAt={fetchedAt} qname={task.queue} />}</TD>
        </>
      )}
      {actions && <TD className="w-[8.5rem] px-1">{(actions.length > 0 || onReschedule) && <TaskRowActions actions={actions} onAction={onAction} onReschedule={onReschedule} />}</TD>}
    </tr>
  );
}
