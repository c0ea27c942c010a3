'use client';

import { useState } from 'react';
import { ConfirmDialog } from '@/components/common/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { SafeText } from '@/components/ui/safe-text';
import { ExactTime } from '@/components/common/exact-time';
import { paths } from '@/lib/paths';

/** What a refusal's details say about an archived task in the way (lib/asynq/client/task-in-the-way.ts). */
export interface ArchivedInTheWay {
  archivedAt: string | null;
  type: string;
  lastError: string;
  lastFailedAt: string | null;
}

/** The refusal's details narrowed to an archived task, or null. */
export function archivedOf(v: unknown): ArchivedInTheWay | null {
  if (typeof v !== 'object' || v === null) return null;
  const a = v as Partial<ArchivedInTheWay>;
  return typeof a.type === 'string' && typeof a.lastError === 'string' ? (a as ArchivedInTheWay) : null;
}

interface Props {
  queue: string;
  id: string;
  archived: ArchivedInTheWay;
  /** What the archived task holds: the new task's ID, or its unique lock. */
  holds: 'id' | 'lock';
  onReplace: (() => void) | undefined;
  pending: boolean;
}

/**
 * The archived task that blocks this enqueue, named (queue, ID, type, when archived, last
 * error), and the one confirmed action that removes it and enqueues in the same step.
 */
export function ArchivedTaskInTheWay({ queue, id, archived, holds, onReplace, pending }: Props) {
  const [open, setOpen] = useState(false);
  const task = <Link href={paths.task(queue, id)} className="font-mono text-xs break-all text-accent hover:underline"><SafeText text={id} /></Link>;
  const label = holds === 'id' ? 'Delete the archived task and enqueue' : 'Delete the archived holder and enqueue';
  return (
    <div data-testid="archived-in-the-way" className="mt-1 flex flex-col gap-1 border-t border-danger/20 pt-2">
      <span>
        {holds === 'id' ? 'That task is archived' : <>The holder is archived: {task} in <strong><SafeText text={queue} /></strong></>}
        {archived.type && <> (<code className="font-mono text-xs"><SafeText text={archived.type} /></code>)</>}
        {archived.archivedAt && <>, since <ExactTime iso={archived.archivedAt} /></>}.
      </span>
      {archived.lastError && (
        <span className="text-xs">
          Last error: <span data-testid="archived-last-error" className="font-mono break-words"><SafeText text={archived.lastError} /></span>
        </span>
      )}
      {onReplace && (
        <Button variant="danger" className="mt-1 self-start" disabled={pending} onClick={() => setOpen(true)}>
          {pending ? 'Working…' : `${label}…`}
        </Button>
      )}
      <ConfirmDialog
        open={open}
        title={`${label}?`}
        confirmLabel="Delete and enqueue"
        danger
        pending={pending}
        onClose={() => setOpen(false)}
        onConfirm={() => {
          setOpen(false);
          onReplace?.();
        }}
      >
        <p className="text-[13px]">
          Archived task <code className="font-mono text-xs break-all"><SafeText text={id} /></code> is deleted (as asynq&apos;s DeleteTask does) and
          your task is enqueued, in one step: no other client can take the {holds === 'id' ? 'ID' : 'lock'} in between. If the task is no longer
          archived, or no longer {holds === 'id' ? 'has this ID' : 'holds the lock'}, nothing is changed and you are told what it is now.
        </p>
      </ConfirmDialog>
    </div>
  );
}
