import type { ThHTMLAttributes } from 'react';
import { cn } from '@/lib/utils';
import { TH } from './table';

interface Props extends Omit<ThHTMLAttributes<HTMLTableCellElement>, 'onClick'> {
  label: string;
  /** This column's order when the table is sorted by it, else null. */
  order: 'asc' | 'desc' | null;
  /** A click: the caller picks the next order (flip, or the column's first order). */
  onSort: () => void;
  /** Shown as the button's title: what the order means (e.g. "newest first"). */
  hint?: string;
}

/**
 * A column heading that sorts: a button inside the th, with aria-sort on the th so screen
 * readers announce the column and direction (WAI-ARIA sortable table pattern).
 */
export function SortHeader({ label, order, onSort, hint, className, ...props }: Props) {
  const sort = order === 'asc' ? 'ascending' : order === 'desc' ? 'descending' : 'none';
  return (
    <TH aria-sort={sort} className={className} {...props}>
      <button
        type="button"
        onClick={onSort}
        title={hint}
        className={cn('inline-flex items-center gap-1 uppercase hover:text-fg', order && 'text-fg')}
      >
        {label}
        <span aria-hidden className={cn('text-[10px]', !order && 'opacity-30')}>
          {order === 'desc' ? '▼' : '▲'}
        </span>
      </button>
    </TH>
  );
}
