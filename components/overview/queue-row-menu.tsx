'use client';

import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Icon } from '@/components/ui/icons';
import type { QueueStatsDto } from '@/lib/contract/queues';
import { escapeText } from '@/lib/display-text';

/**
 * The list's code (links, pause with its confirmation, the fetch) loads on the first open: the
 * overview's first load stays within its JavaScript budget (tests/e2e/budget.spec.ts).
 */
const QueueRowActions = lazy(() => import('./queue-row-actions'));

type Place = { top: number; right: number };

/**
 * One queue's actions in the overview's table, behind a button per row. The list is fixed to
 * the viewport under the button (the table's sideways scroll container would clip a list placed
 * inside it) and follows the button when the page scrolls.
 */
export function QueueRowMenu({ queue, readOnly }: { queue: QueueStatsDto; readOnly: boolean }) {
  const [open, setOpen] = useState<Place | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  const place = (): Place | null => {
    const r = button.current?.getBoundingClientRect();
    return r ? { top: r.bottom + 4, right: window.innerWidth - r.right } : null;
  };
  useEffect(() => {
    if (!open) return;
    const away = (e: Event) => box.current && !e.composedPath().includes(box.current) && setOpen(null);
    const esc = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(null);
    const follow = () => setOpen(place());
    document.addEventListener('pointerdown', away);
    document.addEventListener('keydown', esc);
    window.addEventListener('scroll', follow, true);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('keydown', esc);
      window.removeEventListener('scroll', follow, true);
    };
  }, [open]);
  return (
    <div ref={box}>
      <button
        ref={button}
        type="button"
        aria-label={`Actions for queue ${escapeText(queue.queue)}`}
        aria-expanded={open !== null}
        aria-controls={id}
        onClick={() => setOpen((o) => (o ? null : place()))}
        className="rounded px-1.5 py-0.5 text-muted hover:bg-hover hover:text-fg"
      >
        <Icon name="chevronDown" size={13} />
      </button>
      {open && (
        <div id={id} style={open} className="fixed z-20 max-h-80 w-44 overflow-y-auto rounded-md border border-line-strong bg-panel py-1 shadow-lg">
          <Suspense fallback={<p className="px-3 py-1.5 text-xs text-muted">Loading…</p>}>
            <QueueRowActions queue={queue} readOnly={readOnly} onDone={() => setOpen(null)} />
          </Suspense>
        </div>
      )}
    </div>
  );
}
