'use client';

import { EmptyState, ErrorState } from '@/components/common/states';
import { ScanStatus } from '@/components/failures/scan-status';
import { plural } from '@/components/tasks/task-actions';
import { Panel } from '@/components/ui/panel';
import { SkeletonRows } from '@/components/ui/skeleton';
import type { TaskTypesDto } from '@/lib/contract/triage';
import type { RouteFilter } from '@/lib/url-state';
import { matchesFilter, RouteFilterTabs } from './route-filter';
import type { Route } from './route-row';
import { RoutesTable } from './routes-table';
import type { TypeRow } from './type-rows';

function Summary({ rows }: { rows: { row: TypeRow; route: Route }[] }) {
  const count = (f: (r: { row: TypeRow; route: Route }) => boolean) => rows.filter(f).length;
  const warned = count(({ route }) => route.warning !== null);
  return (
    <p className="px-3 py-2 text-[13px]" data-testid="routing-summary">
      {plural(rows.length, 'task type')}: {count(({ route }) => route.match === 'exact')} exact, {count(({ route }) => route.match === 'prefix')} by
      prefix{warned > 0 && <span className="text-warning"> ({warned} to check)</span>}, {count(({ route }) => route.match === 'none')} with no route in this set.
    </p>
  );
}

interface Props {
  census: { data: TaskTypesDto | undefined; error: unknown; refetch: () => void };
  typeCount: number;
  /** Null until there is something to explain (patterns and types). */
  routed: { row: TypeRow; route: Route }[] | null;
  /** Why there are no routes to show (no patterns yet, patterns refused, explain failed). */
  blocked: { title: string; text: string; error?: unknown } | null;
  filter: RouteFilter;
  filterHref: (f: RouteFilter) => string;
  onFilter: (f: RouteFilter) => void;
}

/** The task types in Redis and the route a ServeMux with the tested patterns would pick. */
export function RoutesPanel({ census, typeCount, routed, blocked, filter, filterHref, onFilter }: Props) {
  const d = census.data;
  let body;
  if (!d) body = census.error ? <ErrorState error={census.error} onRetry={census.refetch} title="Could not list the task types" /> : <SkeletonRows rows={5} />;
  else if (d.complete && typeCount === 0) body = <EmptyState title="No tasks in Redis">There is no task type to route yet.</EmptyState>;
  else if (blocked) body = blocked.error ? <ErrorState error={blocked.error} title={blocked.title} /> : <EmptyState title={blocked.title}>{blocked.text}</EmptyState>;
  else if (!routed) body = <SkeletonRows rows={5} />;
  else {
    body = (
      <>
        <Summary rows={routed} />
        <div className="border-b border-line px-2">
          <RouteFilterTabs rows={routed} active={filter} href={filterHref} onSelect={onFilter} />
        </div>
        <RoutesTable rows={routed.filter(({ row, route }) => matchesFilter(filter, row, route))} />
      </>
    );
  }
  return (
    <Panel flush title="Task types in Redis, under these patterns" aria-label="Task types in Redis">
      {d && !d.complete && <ScanStatus label="Task type census" scanned={d.scanned} total={d.total} what="every task" />}
      {body}
    </Panel>
  );
}
