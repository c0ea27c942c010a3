'use client';

import type { DuplicateGroupDto } from '@/lib/contract/diagnostics';
import { DUPLICATE_KINDS, type DuplicateKindFilter } from '@/lib/url-state';
import { cn, formatNumber } from '@/lib/utils';

const LABEL: Record<DuplicateKindFilter, string> = { all: 'All groups', exact: 'Exact', near: 'Near' };

/** All groups, or only the exact or the near ones, with how many of each are listed. */
export function KindFilter({ groups, active, onChange }: { groups: DuplicateGroupDto[]; active: DuplicateKindFilter; onChange: (k: DuplicateKindFilter) => void }) {
  const count = (k: DuplicateKindFilter) => (k === 'all' ? groups.length : groups.filter((g) => g.kind === k).length);
  return (
    <div role="group" aria-label="Kind of duplicates" className="flex gap-1.5">
      {DUPLICATE_KINDS.map((k) => (
        <button
          key={k}
          type="button"
          aria-pressed={active === k}
          onClick={() => onChange(k)}
          className={cn(
            'inline-flex h-7 items-center gap-1.5 rounded-md border px-2 text-xs',
            active === k ? 'border-accent bg-accent-soft font-medium text-fg' : 'border-line text-muted hover:bg-hover hover:text-fg',
          )}
        >
          {LABEL[k]}
          <span className="tabular text-[11px]">{formatNumber(count(k))}</span>
        </button>
      ))}
    </div>
  );
}
