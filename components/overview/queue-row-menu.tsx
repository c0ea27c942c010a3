'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useId, useRef, useState } from 'react';
import { ConfirmDialog } from '@/components/common/confirm-dialog';
import { Icon } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';
import { SafeText } from '@/components/ui/safe-text';
import type { QueueStatsDto } from '@/lib/contract/queues';
import { apiPaths, paths } from '@/lib/paths';
import { apiMutate } from '@/lib/query/fetcher';
import { escapeText } from '@/lib/display-text';
import { TASK_STATES } from '@/lib/url-state';

/**
 * One queue's actions in the overview's table: its state tabs, its locks, and pause or resume.
 * Pausing asks first (a misclick in a long table stops a queue's workers); resuming does not,
 * as on the queue page. Neither is offered in read-only mode or to a viewer, whom the API
 * refuses. A plain fetch, not a TanStack mutation: the overview stays within its JavaScript
 * budget. The route clears the live snapshot, so the refresh after it shows the new state.
 */
export function QueueRowMenu({ queue, readOnly }: { queue: QueueStatsDto; readOnly: boolean }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const id = useId();
  useEffect(() => {
    if (!open) return;
    const away = (e: Event) => box.current && !box.current.contains(e.target as Node) && setOpen(false);
    const esc = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('pointerdown', away);
    document.addEventListener('keydown', esc);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('keydown', esc);
    };
  }, [open]);

  const setPaused = async (pause: boolean) => {
    setPending(true);
    setError(null);
    try {
      await apiMutate('POST', pause ? apiPaths.pause(queue.queue) : apiPaths.resume(queue.queue));
      setConfirming(false);
      setOpen(false);
      router.refresh();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setPending(false);
    }
  };

  const item = 'block w-full px-3 py-1.5 text-left text-[13px] capitalize hover:bg-hover';
  return (
    <div ref={box} className="relative">
      <button
        type="button"
        aria-label={`Actions for queue ${escapeText(queue.queue)}`}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        className="rounded px-1.5 py-0.5 text-muted hover:bg-hover hover:text-fg"
      >
        <Icon name="chevronDown" size={13} />
      </button>
      {open && (
        <div id={id} className="absolute right-0 z-20 mt-1 w-44 rounded-md border border-line-strong bg-panel py-1 shadow-lg">
          {!readOnly && !queue.problem && (
            <button type="button" className={item} onClick={() => (queue.paused ? void setPaused(false) : setConfirming(true))} disabled={pending}>
              {queue.paused ? 'Resume' : 'Pause…'}
            </button>
          )}
          {error && !confirming && <p className="px-3 py-1 text-xs text-danger">{error}</p>}
          {TASK_STATES.map((s) => (
            <Link key={s} href={paths.queue(queue.queue, { state: s })} className={item}>
              {s} <span className="text-subtle tabular">{queue[s]}</span>
            </Link>
          ))}
          <Link href={paths.queueLocks(queue.queue)} className={item}>
            Locks
          </Link>
        </div>
      )}
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
    </div>
  );
}
