'use client';

import type { ReactNode } from 'react';
import { TaskStateTabs } from '@/components/tasks/task-state-tabs';
import { Tabs } from '@/components/ui/tabs';
import type { QueueStatsDto } from '@/lib/contract/queues';
import type { TaskStateDto } from '@/lib/contract/tasks';
import { paths } from '@/lib/paths';

export type QueueTab = TaskStateDto | 'locks' | 'duplicates';

interface Props {
  qname: string;
  stats: QueueStatsDto | undefined;
  active: QueueTab;
  stateHref: (state: TaskStateDto) => string;
  locksHref: string;
  /** A plain click on a tab (the caller updates the URL in place or navigates). */
  onSelect: (tab: QueueTab) => void;
  /** Controls on the right (the aggregation group filter). */
  children?: ReactNode;
}

/** A queue's tabs: one per task state with its count, then its unique locks and its duplicates. */
export function QueueTabs({ qname, stats, active, stateHref, locksHref, onSelect, children }: Props) {
  const isState = active !== 'locks' && active !== 'duplicates';
  return (
    <div className="flex flex-wrap items-end justify-between gap-2 border-b border-line px-2">
      <div className="flex min-w-0 items-end gap-2 overflow-x-auto">
        <TaskStateTabs stats={stats} active={isState ? active : null} href={stateHref} onSelect={onSelect} />
        <span aria-hidden className="mb-2.5 h-4 w-px shrink-0 bg-line-strong" />
        <Tabs
          label="Uniqueness"
          active={active}
          onSelect={(k) => onSelect(k as QueueTab)}
          items={[
            { key: 'locks', label: 'Locks', href: locksHref },
            { key: 'duplicates', label: 'Duplicates', href: paths.duplicates(qname) },
          ]}
        />
      </div>
      {children}
    </div>
  );
}
