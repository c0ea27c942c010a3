'use client';

import type { ThHTMLAttributes } from 'react';
import { cn } from '@/lib/utils';
import { Link } from './link';
import { TH } from './table';

interface Props extends Omit<ThHTMLAttributes<HTMLTableCellElement>, 'onClick'> {
  label: string;
  /** This column's order when the table is sorted by it, else null. */
  order: 'asc' | 'desc' | null;
  /** A click, in place (the caller picks the next order)… */
  onSort?: () => void;
  /** …or the address of the view in the next order (a server-rendered table). */
  href?: string;
  /** What a click does, as the control's title (e.g. "latest first"). */
  hint?: string;
}

/**
 * A column heading that sorts: a button (or link) inside the th, with aria-sort on the th so
 * screen readers announce the column and its direction (the WAI-ARIA sortable table pattern).
 */
export function SortHeader({ label, order, onSort, href, hint, className, ...props }: Props) {
  const sort = order === 'asc' ? 'ascending' : order === 'desc' ? 'descending' : 'none';
  const inner = (
    <>
      {label}
      {order && (
        <span aria-hidden className="text-[10px]">
          {order === 'desc' ? '▼' : '▲'}
        </span>
      )}
    </>
  );
  // Only the sorted column shows an arrow: the queue table is wide, and the heading's hover says it is a control.
  const look = cn('inline-flex items-center gap-1 uppercase hover:text-fg hover:underline', order && 'text-fg');
  return (
    <TH aria-sort={sort} className={className} {...props}>
      {href !== undefined ? (
        <Link href={href} replace title={hint} className={look}>
          {inner}
        </Link>
      ) : (
        <button type="button" onClick={onSort} title={hint} className={look}>
          {inner}
        </button>
      )}
    </TH>
  );
}
