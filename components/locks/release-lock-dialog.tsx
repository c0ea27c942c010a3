'use client';

import { ConfirmDialog } from '@/components/common/confirm-dialog';
import { toast } from '@/components/ui/toaster';
import type { LockDto } from '@/lib/contract/diagnostics';
import { useReleaseLock } from '@/lib/query/locks';
import { SafeText } from '@/components/ui/safe-text';

function holderWords(lock: LockDto): string {
  if (lock.holderState === null) return `Its holder, task ${lock.holderId}, no longer exists.`;
  if (lock.holderState === 'completed') return `Its holder, task ${lock.holderId}, has completed.`;
  return `Its holder, task ${lock.holderId}, is archived; if you run it again by hand, it runs without this lock.`;
}

/**
 * Asks before releasing a lock. The request names the holder shown here, so a lock that
 * changed owner since is left alone (the server answers 409 and the dialog says so).
 */
export function ReleaseLockDialog({ lock, onClose }: { lock: LockDto | null; onClose: () => void }) {
  const m = useReleaseLock();
  if (!lock) return null;
  const close = () => {
    m.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open
      title="Release this unique lock?"
      confirmLabel="Release lock"
      danger
      pending={m.isPending}
      onClose={close}
      onConfirm={() =>
        m.mutate(lock, {
          onSuccess: () => {
            toast(`Released the lock on ${lock.taskType} in ${lock.queue}`, 'success');
            close();
          },
        })
      }
    >
      <div className="flex flex-col gap-2">
        <p>
          <code className="font-mono text-xs break-all text-fg"><SafeText text={lock.key} /></code>
        </p>
        <p>
          <SafeText text={holderWords(lock)} /> Once released, a <strong className="text-fg"><SafeText text={lock.taskType} /></strong> task with this payload can be enqueued into{' '}
          <strong className="break-all text-fg"><SafeText text={lock.queue} /></strong> again at once.
        </p>
        <p>If another task has taken the lock since this page read it, nothing is deleted.</p>
        {m.error && (
          <p role="alert" className="text-danger">
            <SafeText text={m.error.message} />

          </p>
        )}
      </div>
    </ConfirmDialog>
  );
}
