'use client';

import { useQuery } from '@tanstack/react-query';
import { Select } from '@/components/ui/select';
import { queueListQuery } from '@/lib/query/queues';
import { escapeText } from '@/lib/display-text';

/** Every queue, or one (the server-side scan then reads only that queue). */
export function QueueFilter({ value, onChange }: { value: string; onChange: (queue: string) => void }) {
  const { data } = useQuery(queueListQuery());
  const names = data?.queues.map((q) => q.queue) ?? [];
  if (value && !names.includes(value)) names.unshift(value);
  return (
    <label className="flex items-center gap-2 text-xs text-muted">
      Queue
      <Select value={value} onChange={(e) => onChange(e.target.value)} aria-label="Queue">
        <option value="">All queues</option>
        {names.map((q) => (
          <option key={q} value={q}>
            {escapeText(q)}

          </option>
        ))}
      </Select>
    </label>
  );
}
