'use client';

import { useEffect } from 'react';
import { EmptyState, ErrorState } from '@/components/common/states';
import { plural } from '@/components/tasks/task-actions';
import { Link } from '@/components/ui/link';
import { Panel } from '@/components/ui/panel';
import { SafeText } from '@/components/ui/safe-text';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Tabs } from '@/components/ui/tabs';
import { VERDICT_LABEL } from '@/components/verdict/verdict-badge';
import { VerdictText } from '@/components/verdict/verdict-text';
import { verdictKey } from '@/components/verdict/use-verdicts';
import type { RoutingVerdictDto, RoutingVerdictsDto } from '@/lib/contract/routing-verdicts';
import { paths } from '@/lib/paths';
import { VERDICT_FILTERS, type VerdictFilter } from '@/lib/url-state';
import { cn } from '@/lib/utils';
import { RoutingFileProblems } from './routing-file-problems';

/** Conflicts first (the fleet contradicts itself), then sure failures: what needs a person. */
const ORDER: Record<RoutingVerdictDto['verdict'], number> = { conflict: 0, not_handled: 1, unknown: 2, aggregated: 3, handled: 4 };

const sorted = (vs: RoutingVerdictDto[]) =>
  [...vs].sort((a, b) => ORDER[a.verdict] - ORDER[b.verdict] || (a.taskType < b.taskType ? -1 : a.taskType > b.taskType ? 1 : 0) || (a.queue < b.queue ? -1 : 1));

export const verdictAnchor = (queue: string, type: string): string => `verdict-${encodeURIComponent(verdictKey(queue, type))}`;

function Row({ v, focused }: { v: RoutingVerdictDto; focused: boolean }) {
  return (
    <li
      id={verdictAnchor(v.queue, v.taskType)}
      data-testid="verdict-row"
      data-queue={v.queue}
      data-type={v.taskType}
      className={cn('grid scroll-mt-4 gap-x-4 gap-y-1 px-3 py-2.5 md:grid-cols-[minmax(0,16rem)_minmax(0,1fr)]', focused && 'bg-accent-soft')}
    >
      <div className="min-w-0 text-[13px]">
        <p className="font-mono break-all"><SafeText text={v.taskType} /></p>
        <p className="text-xs text-muted">
          in{' '}
          <Link href={paths.queue(v.queue)} className="break-all text-accent hover:underline">
            <SafeText text={v.queue} />
          </Link>
        </p>
      </div>
      <VerdictText v={v} open={focused} />
    </li>
  );
}

interface Props {
  data: RoutingVerdictsDto | undefined;
  error: unknown;
  refetch: () => void;
  filter: VerdictFilter;
  /** A type to point at: its rows are shown open and scrolled to. */
  focus: string | undefined;
  filterHref: (f: VerdictFilter) => string;
  onFilter: (f: VerdictFilter) => void;
}

/** The fleet's verdict for every (queue, task type): what every other page says about routing. */
export function VerdictsPanel({ data, error, refetch, filter, focus, filterHref, onFilter }: Props) {
  const all = data ? sorted(data.verdicts) : [];
  const rows = filter === 'all' ? all : all.filter((v) => v.verdict === filter);
  const first = focus === undefined ? undefined : rows.find((v) => v.taskType === focus);
  useEffect(() => {
    if (first) document.getElementById(verdictAnchor(first.queue, first.taskType))?.scrollIntoView({ block: 'start' });
  }, [first]);
  let body;
  if (!data) body = error ? <ErrorState error={error} onRetry={refetch} title="Could not read the routing verdicts" /> : <SkeletonRows rows={4} />;
  else if (all.length === 0) body = <EmptyState title="No task type to judge yet">No queue holds a task, and no server or routing file names one.</EmptyState>;
  else if (rows.length === 0) body = <EmptyState title="No verdict matches this filter" />;
  else {
    body = (
      <ul aria-label="Routing verdicts" className="divide-y divide-line">
        {rows.map((v) => (
          <Row key={verdictKey(v.queue, v.taskType)} v={v} focused={v.taskType === focus} />
        ))}
      </ul>
    );
  }
  const count = (f: VerdictFilter) => (f === 'all' ? all.length : all.filter((v) => v.verdict === f).length);
  const tabs = VERDICT_FILTERS.map((f) => ({ key: f, label: f === 'all' ? 'All' : VERDICT_LABEL[f], count: data ? count(f) : undefined, href: filterHref(f) }));
  return (
    <Panel flush title="What the fleet does with each task type" aria-label="Routing verdicts">
      {data && <RoutingFileProblems problems={data.problems} />}
      <p className="px-3 py-2 text-xs text-muted" data-testid="verdicts-intro">
        {data ? `${plural(all.length, 'queue and type pair')}. ` : ''}
        Judged from what Redis records — the servers and the queues each consumes, what their workers ran, what failed with
        &ldquo;handler not found&rdquo; and when — and from the routes each worker group declares
        {data && (data.routingFile ? <> in <span className="font-mono"><SafeText text={data.routingFile} /></span></> : ' (no routing file is configured)')}.
        {data && !data.complete && <span role="status" className="text-warning"> Still reading the evidence: verdicts may change.</span>}
      </p>
      <div className="border-b border-line px-2">
        <Tabs label="Filter verdicts" items={tabs} active={filter} onSelect={(k) => onFilter(k as VerdictFilter)} />
      </div>
      {body}
    </Panel>
  );
}
