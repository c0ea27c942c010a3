'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/common/confirm-dialog';
import { Link } from '@/components/ui/link';
import { SafeText } from '@/components/ui/safe-text';
import type { QueueStatsDto } from '@/lib/contract/queues';
import { apiPaths, paths } from '@/lib/paths';
import { apiMutate } from '@/lib/query/fetcher';
import { TASK_STATES } from '@/lib/url-state';

const ITEM = 'block w-full px-3 py-1.5 text-left text-[13px] capitalize hover:bg-hover';

/**
 * The list of a queue's row menu: its state tabs, its locks, and pause or resume. Pausing asks
 * first (a misclick in a long table stops a queue's workers); resuming does not, as on the queue
 * page. Neither is offered in read-only mode or to a viewer, whom the API refuses. A plain
 * fetch, not a TanStack mutation (the overview has no query client); the route clears the live
 * snapshot, so the refresh after it shows the new state.
 */
export default function QueueRowActions({ queue, readOnly, onDone }: { queue: QueueStatsDto; readOnly: boolean; onDone: () => void }) {
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const setPaused = async (pause: boolean) => {
    setPending(true);
    setError(null);
    try {
      await apiMutate('POST', pause ? apiPaths.pause(queue.queue) : apiPaths.resume(queue.queue));
      setConfirming(false);
      onDone();
      router.refresh();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      {!readOnly && !queue.problem && (
        <button type="button" className={ITEM} onClick={() => (queue.paused ? void setPaused(false) : setConfirming(true))} disabled={pending}>
          {queue.paused ? 'Resume' : 'Pause…'}
        </button>
      )}
      {error && !confirming && <p className="px-3 py-1 text-xs text-danger">{error}</p>}
      {TASK_STATES.map((s) => (
        <Link key={s} href={paths.queue(queue.queue, { state: s })} className={ITEM}>
          {s} <span className="text-subtle tabular">{queue[s]}</span>
        </Link>
      ))}
      <Link href={paths.queueLocks(queue.queue)} className={ITEM}>
        Locks
      </Link>
      <ConfirmDialog
        open={confirming}
        title={<>Pause queue <SafeText text={queue.queue} />?</>}
        confirmLabel="Pause"
        pending={pending}
        onConfirm={() => void setPaused(true)}
        onClose={() => setConfirming(false)}
      >
        <p>Workers stop taking its pending tasks until it is resumed; tasks keep being enqueued.</p>
        {error && <p className="mt-2 text-danger">{error}</p>}
      </ConfirmDialog>
    </>
  );
}
