'use client';

import type { ReactNode } from 'react';
import { useLockRemaining } from '@/components/tasks/lock-badge';
import { StateBadge } from '@/components/tasks/state-badge';
import { Icon } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';
import type { TaskDto } from '@/lib/contract/tasks';
import { paths } from '@/lib/paths';
import { isApiError } from '@/lib/query/fetcher';
import { cn, formatDuration } from '@/lib/utils';
import { SafeText } from '@/components/ui/safe-text';
import { ArchivedTaskInTheWay, archivedOf } from './archived-in-the-way';

interface Lock { key: string; ttlSeconds: number | null; holderId: string | null; holderState?: string | null; holderArchived?: unknown }
interface Existing { id: string; queue: string; state: string | null; archived?: unknown }
/** "Delete the archived task and enqueue", offered when the task in the way is archived; absent read-only. */
interface Replace { onReplace: ((archivedId: string) => void) | undefined; replacing: boolean }

function Box({ tone, at, children }: { tone: 'success' | 'danger'; at: number; children: ReactNode }) {
  return (
    <div role={tone === 'danger' ? 'alert' : 'status'} data-testid="enqueue-outcome" data-at={at}
      className={cn('flex flex-col gap-1 rounded-lg border px-3 py-2.5 text-[13px]', tone === 'success' ? 'border-success/40 bg-success-soft' : 'border-danger/40 bg-danger-soft')}>
      {children}
    </div>
  );
}

function Duplicate({ lock, queue, at, onReplace, replacing }: { lock: Lock; queue: string; at: number } & Replace) {
  const left = useLockRemaining({ ...lock, ownedByThisTask: false }, at);
  const archived = archivedOf(lock.holderArchived);
  const holder = lock.holderId;
  return (
    <Box tone="danger" at={at}>
      <strong className="text-danger">Refused: duplicate_task (“task already exists”).</strong>
      <span>
        The unique lock <code className="font-mono text-xs break-all"><SafeText text={lock.key} /></code> is held by{' '}
        {lock.holderId ? <Link href={paths.task(queue, lock.holderId)} className="font-mono text-xs break-all text-accent hover:underline"><SafeText text={lock.holderId} /></Link> : 'a task that is gone'}.
      </span>
      <span data-testid="lock-ends">{left === null ? 'The lock has just gone: try again.' : left < 0 ? 'The lock never expires.' : `It ends in ${formatDuration(left)}, or when that task succeeds or is deleted.`}</span>
      {archived && holder && (
        <ArchivedTaskInTheWay queue={queue} id={holder} archived={archived} holds="lock" pending={replacing} onReplace={onReplace && (() => onReplace(holder))} />
      )}
    </Box>
  );
}

/** What the last enqueue did: a link to the new task, or asynq's refusal with who is in the way. */
export function EnqueueOutcome({ queue, data, error, at, onReplace, replacing }: { queue: string; data: TaskDto | undefined; error: unknown; at: number } & Replace) {
  if (data) {
    return (
      <Box tone="success" at={at}>
        <strong className="flex items-center gap-1.5 text-success"><Icon name="check" size={13} /> Enqueued</strong>
        <span className="flex flex-wrap items-center gap-1.5">
          <Link href={paths.task(data.queue, data.id)} className="font-mono text-xs break-all text-accent hover:underline"><SafeText text={data.id} /></Link>
          in <strong><SafeText text={data.queue} /></strong> as
 <StateBadge state={data.state} />
        </span>
      </Box>
    );
  }
  if (!error) return null;
  if (isApiError(error) && error.code === 'duplicate_task' && error.details.lock) {
    return <Duplicate lock={error.details.lock as Lock} queue={queue} at={at} onReplace={onReplace} replacing={replacing} />;
  }
  if (isApiError(error) && error.code === 'task_id_conflict' && error.details.existing) {
    const e = error.details.existing as Existing;
    const archived = archivedOf(e.archived);
    return (
      <Box tone="danger" at={at}>
        <strong className="text-danger">Refused: task_id_conflict (“task ID conflicts with another task”).</strong>
        <span className="flex flex-wrap items-center gap-1.5">
          The ID is already used by {e.state ? <StateBadge state={e.state} /> : 'a'} task{' '}
          <Link href={paths.task(e.queue, e.id)} className="font-mono text-xs break-all text-accent hover:underline"><SafeText text={e.id} /></Link> in <strong><SafeText text={e.queue} /></strong>.
        </span>
        {archived && (
          <ArchivedTaskInTheWay queue={e.queue} id={e.id} archived={archived} holds="id" pending={replacing} onReplace={onReplace && (() => onReplace(e.id))} />
        )}
      </Box>
    );
  }
  return (
    <Box tone="danger" at={at}>
      <strong className="text-danger">Refused{isApiError(error) ? `: ${error.code}` : ''}</strong>
      <span><SafeText text={error instanceof Error ? error.message : 'Unknown error'} /></span>

    </Box>
  );
}
