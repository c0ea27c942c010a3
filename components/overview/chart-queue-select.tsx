'use client';

import { useRouter } from 'next/navigation';
import { Select } from '@/components/ui/select';
import { withQuery } from '@/lib/paths';
import { escapeText } from '@/lib/display-text';
import { overviewQuery, type OverviewViewState } from '@/lib/url-state';

/** Picks the queue the chart shows ('' = all); the choice goes into the URL. */
export function ChartQueueSelect({ queues, view, allLabel }: { queues: string[]; view: OverviewViewState; allLabel: string }) {
  const router = useRouter();
  return (
    <Select
      aria-label="Queue shown in the chart"
      value={view.chart}
      onChange={(e) => router.replace(withQuery('/', overviewQuery({ ...view, chart: e.target.value })), { scroll: false })}
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
