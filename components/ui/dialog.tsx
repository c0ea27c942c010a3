'use client';

import { useEffect, useId, useRef, type ReactNode } from 'react';
import { cn } from '@/lib/utils';
import { SafeText } from '@/components/ui/safe-text';

interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  className?: string;
}

/**
 * A modal on the native <dialog>: the browser gives focus trapping, Escape to close and the
 * backdrop, with no library.
 */
export function Dialog({ open, onClose, title, children, footer, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(e) => e.target === ref.current && onClose()}
      className={cn(
        'm-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg border border-line bg-panel p-0 text-fg shadow-2xl',
        className,
      )}
    >
      {open && (
        <div className="flex flex-col">
          <h2 id={titleId} className="px-4 pt-4 text-sm font-semibold">{typeof title === 'string' ? <SafeText text={title} /> : title}</h2>

          <div className="px-4 py-3 text-[13px] text-muted">{children}</div>
          {footer && <div className="flex justify-end gap-2 border-t border-line bg-bg-subtle px-4 py-3">{footer}</div>}
        </div>
      )}
    </dialog>
  );
}
