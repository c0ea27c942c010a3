import type { ReactNode } from 'react';
import { cn, formatNumber } from '@/lib/utils';

interface Props {
  pressed: boolean;
  count: number;
  onClick: () => void;
  /** Fade the chip while it would show nothing (and is not the current choice). */
  dimWhenEmpty?: boolean;
  children: ReactNode;
}

/** One choice of a filter row, with how many items it holds. */
export function CountChip({ pressed, count, onClick, dimWhenEmpty = false, children }: Props) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={onClick}
      className={cn(
        'inline-flex h-7 items-center gap-1.5 rounded-md border px-2 text-xs whitespace-nowrap',
        pressed ? 'border-accent bg-accent-soft font-medium text-fg' : 'border-line text-muted hover:bg-hover hover:text-fg',
        // Dimmed by colour, not opacity: faded text would fall under 4.5:1 contrast.
        dimWhenEmpty && count === 0 && !pressed && 'text-subtle',
      )}
    >
      {children}
      <span className="tabular text-[11px]">{formatNumber(count)}</span>
    </button>
  );
}
