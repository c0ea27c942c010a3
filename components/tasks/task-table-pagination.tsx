'use client';

import { Button } from '@/components/ui/button';
import { Kbd } from '@/components/ui/kbd';
import { Select } from '@/components/ui/select';
import { PAGE_SIZES } from '@/lib/url-state';
import { formatNumber } from '@/lib/utils';

interface Props {
  page: number;
  size: number;
  total: number;
  onChange: (patch: { page?: number; size?: number }) => void;
}

export function TaskTablePagination({ page, size, total, onChange }: Props) {
  const pages = Math.max(1, Math.ceil(total / size));
  const from = total === 0 ? 0 : (page - 1) * size + 1;
  const to = Math.min(total, page * size);
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-t border-line px-3 py-2 text-xs text-muted">
      <span className="hidden items-center gap-1 md:flex">
        <Kbd>j</Kbd>
        <Kbd>k</Kbd> move · <Kbd>↵</Kbd> open · <Kbd>x</Kbd> select
      </span>
      <div className="ml-auto flex items-center gap-2">
        <span className="tabular">
          {formatNumber(from)}–{formatNumber(to)} of {formatNumber(total)}
        </span>
        <Select aria-label="Rows per page" value={size} onChange={(e) => onChange({ size: Number(e.target.value), page: 1 })}>
          {PAGE_SIZES.map((s) => (
            <option key={s} value={s}>
              {s} / page
            </option>
          ))}
        </Select>
        <Button size="sm" disabled={page <= 1} onClick={() => onChange({ page: page - 1 })}>
          <span aria-hidden>‹</span> Previous
        </Button>
        <Button size="sm" disabled={page >= pages} onClick={() => onChange({ page: page + 1 })}>
          Next <span aria-hidden>›</span>
        </Button>
      </div>
    </div>
  );
}
