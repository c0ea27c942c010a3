import type { SelectHTMLAttributes } from 'react';
import { cn } from '@/lib/utils';

/** A native select, styled: keyboard and screen-reader behaviour come for free. */
export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select
      className={cn(
        'h-7 rounded-md border border-line-strong bg-panel px-2 text-xs text-fg hover:bg-hover',
        className,
      )}
      {...props}
    />
  );
}
