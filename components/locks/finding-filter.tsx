'use client';

import { CountChip } from '@/components/ui/count-chip';
import { LOCK_FINDINGS, type LockFilter } from '@/lib/url-state';
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
    <CountChip key={key ?? 'all'} pressed={active === key} count={n} onClick={() => onChange(key)} dimWhenEmpty>
      {label}
    </CountChip>
  );
  return (
    <div role="group" aria-label="Filter locks by finding" className="flex flex-wrap gap-1.5">
      {chip(undefined, 'All', total)}
      {FILTERS.map((f) => chip(f, FILTER_LABEL[f], counts[f]))}
    </div>
  );
}
