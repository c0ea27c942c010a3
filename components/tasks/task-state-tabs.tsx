'use client';

import { Tabs } from '@/components/ui/tabs';
import type { QueueStatsDto } from '@/lib/contract/queues';
import type { TaskStateDto } from '@/lib/contract/tasks';
import { TASK_STATES } from '@/lib/url-state';

interface Props {
  stats: QueueStatsDto | undefined;
  /** null while another tab of the queue (Locks) is shown. */
  active: TaskStateDto | null;
  href: (state: TaskStateDto) => string;
  onSelect: (state: TaskStateDto) => void;
}

/** A tab per state with its live count. */
export function TaskStateTabs({ stats, active, href, onSelect }: Props) {
  return (
    <Tabs
      label="Task states"
      active={active ?? ''}
      onSelect={(k) => onSelect(k as TaskStateDto)}
      items={TASK_STATES.map((s) => ({ key: s, label: s[0]?.toUpperCase() + s.slice(1), count: stats?.[s], href: href(s) }))}
    />
  );
}
