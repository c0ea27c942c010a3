'use client';

import { LOCK_FINDINGS, type LockFilter } from '@/lib/url-state';
import { cn, formatNumber } from '@/lib/utils';
import { FILTER_LABEL } from './lock-labels';

interface Props {
  counts: Record<LockFilter, number>;
  total: number;
  active: LockFilter | undefined;
  onChange: (f: LockFilter | undefined) => void;
}

const FILTERS: LockFilter[] = [...LOCK_FINDINGS, 'healthy'];

/** Narrows a lock table to one finding; each choice shows how many locks it holds. */
export function FindingFilter({ counts, total, active, onChange }: Props) {
  const chip = (key: LockFilter | undefined, label: string, n: number) => (
    <button
      key={key ?? 'all'}
      type="button"
      aria-pressed={active === key}
      onClick={() => onChange(key)}
      className={cn(
        'inline-flex h-7 items-center gap-1.5 rounded-md border px-2 text-xs whitespace-nowrap',
        active === key ? 'border-accent bg-accent-soft font-medium text-fg' : 'border-line text-muted hover:bg-hover hover:text-fg',
        n === 0 && active !== key && 'opacity-60',
      )}
    >
      {label}
      <span className="tabular text-[11px]">{formatNumber(n)}</span>
    </button>
  );
  return (
    <div role="group" aria-label="Filter locks by finding" className="flex flex-wrap gap-1.5">
      {chip(undefined, 'All', total)}
      {FILTERS.map((f) => chip(f, FILTER_LABEL[f], counts[f]))}
    </div>
  );
}
