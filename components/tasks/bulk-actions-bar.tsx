'use client';

import { Button } from '@/components/ui/button';
import type { TaskStateDto } from '@/lib/contract/tasks';
import type { BulkAction } from '@/lib/contract/task-actions';
import { ACTION_LABEL, plural } from './task-actions';

interface Props {
  state: TaskStateDto;
  selectedCount: number;
  pageCount: number;
  total: number;
  allInState: boolean;
  actions: BulkAction[];
  pending: boolean;
  onSelectAll: () => void;
  onClear: () => void;
  onAction: (a: BulkAction) => void;
}

/** What is selected, the offer to widen it to the whole state, and the bulk actions. */
export function BulkActionsBar(p: Props) {
  const count = p.allInState ? p.total : p.selectedCount;
  return (
    <div role="region" aria-label="Bulk actions" className="flex flex-wrap items-center gap-2 border-b border-line bg-accent-soft px-3 py-1.5 text-[13px]">
      <span className="font-medium">
        {p.allInState ? `All ${plural(p.total, `${p.state} task`)} selected` : `${plural(p.selectedCount, 'task')} selected`}
      </span>
      {!p.allInState && p.selectedCount === p.pageCount && p.total > p.pageCount && (
        <button type="button" className="text-accent hover:underline" onClick={p.onSelectAll}>
          Select all {p.total.toLocaleString('en-US')} in {p.state}
        </button>
      )}
      <button type="button" className="text-muted hover:text-fg" onClick={p.onClear}>
        Clear
      </button>
      <div className="ml-auto flex gap-1.5">
        {p.actions.map((a) => (
          <Button key={a} size="sm" variant={a === 'delete' ? 'danger' : 'default'} disabled={p.pending || count === 0} onClick={() => p.onAction(a)}>
            {ACTION_LABEL[a].verb} {count.toLocaleString('en-US')}
          </Button>
        ))}
      </div>
    </div>
  );
}
