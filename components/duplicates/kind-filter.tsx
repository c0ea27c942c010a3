'use client';

import { CountChip } from '@/components/ui/count-chip';
import type { DuplicateGroupDto } from '@/lib/contract/diagnostics';
import { DUPLICATE_KINDS, type DuplicateKindFilter } from '@/lib/url-state';

const LABEL: Record<DuplicateKindFilter, string> = { all: 'All groups', exact: 'Exact', near: 'Near' };

/** All groups, or only the exact or the near ones, with how many of each are listed. */
export function KindFilter({ groups, active, onChange }: { groups: DuplicateGroupDto[]; active: DuplicateKindFilter; onChange: (k: DuplicateKindFilter) => void }) {
  const count = (k: DuplicateKindFilter) => (k === 'all' ? groups.length : groups.filter((g) => g.kind === k).length);
  return (
    <div role="group" aria-label="Kind of duplicates" className="flex gap-1.5">
      {DUPLICATE_KINDS.map((k) => (
        <CountChip key={k} pressed={active === k} count={count(k)} onClick={() => onChange(k)}>
          {LABEL[k]}
        </CountChip>
      ))}
    </div>
  );
}
