'use client';

import { useRouter } from 'next/navigation';
import { Select } from '@/components/ui/select';
import { withQuery } from '@/lib/paths';
import { escapeText } from '@/lib/display-text';

/** Picks the queue the chart shows ('' = all); the choice goes into the URL. */
export function ChartQueueSelect({ queues, chart, days, allLabel }: { queues: string[]; chart: string; days: number; allLabel: string }) {
  const router = useRouter();
  return (
    <Select
      aria-label="Queue shown in the chart"
      value={chart}
      onChange={(e) => router.replace(withQuery('/', { days, chart: e.target.value }), { scroll: false })}
    >
      <option value="">{allLabel}</option>
      {queues.map((q) => (
        <option key={q} value={q}>
          {escapeText(q)}

        </option>
      ))}
    </Select>
  );
}
