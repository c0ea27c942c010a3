import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from '@/lib/utils';

interface PanelProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  title?: ReactNode;
  actions?: ReactNode;
  /** Drop the body padding (tables run edge to edge). */
  flush?: boolean;
}

/** A bordered section with an optional title row. */
export function Panel({ title, actions, flush, className, children, ...props }: PanelProps) {
  return (
    <section className={cn('overflow-hidden rounded-lg border border-line bg-panel', className)} {...props}>
      {(title ?? actions) && (
        <header className="flex min-h-10 flex-wrap items-center justify-between gap-x-3 gap-y-1.5 border-b border-line px-3 py-1.5">
          <h2 className="text-[13px] font-semibold">{title}</h2>
          {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
        </header>
      )}
      <div className={flush ? undefined : 'p-3'}>{children}</div>
    </section>
  );
}
