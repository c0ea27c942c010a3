'use client';

import { useQuery } from '@tanstack/react-query';
import { Select } from '@/components/ui/select';
import { queueGroupsQuery } from '@/lib/query/queues';
import { usePollInterval } from '@/lib/query/use-poll-interval';
import { escapeText } from '@/lib/display-text';

/** Narrows the aggregating tab to one group. */
export function GroupFilter({ qname, group, onChange }: { qname: string; group: string | undefined; onChange: (g: string | undefined) => void }) {
  const poll = usePollInterval();
  const { data } = useQuery({ ...queueGroupsQuery(qname), ...poll });
  const groups = data?.groups ?? [];
  return (
    <label className="flex items-center gap-2 text-xs text-muted">
      Group
      <Select value={group ?? ''} onChange={(e) => onChange(e.target.value || undefined)} aria-label="Aggregation group">
        <option value="">All groups ({groups.length})</option>
        {group && !groups.some((g) => g.group === group) && <option value={group}>{escapeText(group)}</option>}
        {groups.map((g) => (
          <option key={g.group} value={g.group}>
            {escapeText(g.group)} ({g.size})

          </option>
        ))}
      </Select>
    </label>
  );
}
