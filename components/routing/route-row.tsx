import { Fragment } from 'react';
import { Badge } from '@/components/ui/badge';
import { Link } from '@/components/ui/link';
import { TD, TR } from '@/components/ui/table';
import type { RoutingExplainDto } from '@/lib/contract/triage';
import { paths } from '@/lib/paths';
import { TASK_STATES } from '@/lib/url-state';
import { formatNumber } from '@/lib/utils';
import type { TypeRow } from './type-rows';
import { SafeText } from '@/components/ui/safe-text';

export type Route = RoutingExplainDto['routes'][number];

/**
 * What the tested ServeMux would pick. No colour says "fails": whether a task fails is the
 * fleet's verdict (other servers, an aggregator), shown above, not this one set's.
 */
function MatchBadge({ route }: { route: Route }) {
  if (route.match === 'exact') return <Badge tone="green">exact</Badge>;
  if (route.match === 'prefix') return <Badge tone={route.warning ? 'amber' : 'blue'}>prefix{route.warning && ' · check'}</Badge>;
  return <Badge tone="neutral">none</Badge>;
}

function Counts({ row }: { row: TypeRow }) {
  const parts = TASK_STATES.filter((s) => row.counts[s] > 0).map((s) => `${formatNumber(row.counts[s])} ${s}`);
  return <span className="tabular text-xs text-muted">{parts.join(' · ') || '—'}</span>;
}

/**
 * One task type: its route (the explanation on hover), the pattern, its tasks and queues, and
 * a prefix match's warning underneath.
 */
export function RouteRow({ row, route }: { row: TypeRow; route: Route }) {
  return (
    <Fragment>
      <TR className={route.warning ? 'border-b-0' : undefined} data-testid="route-row" data-type={row.taskType} data-match={route.match}>
        <TD className="py-2 align-top font-mono text-xs break-words">{row.taskType ? <SafeText text={row.taskType} /> : <span
 className="text-subtle">(empty type)</span>}</TD>
        <TD className="py-2 align-top whitespace-nowrap" title={route.explanation}>
          <MatchBadge route={route} />
        </TD>
        <TD className="py-2 align-top font-mono text-xs break-words" title={route.explanation}>
          {route.pattern === null ? <span className="text-subtle">—</span> : <SafeText text={JSON.stringify(route.pattern)} />}

        </TD>
        <TD className="py-2 align-top">
          <Counts row={row} />
        </TD>
        <TD className="py-2 align-top text-xs">
          {row.queues.map((q, i) => (
            <Fragment key={q}>
              {i > 0 && ', '}
              <Link href={paths.queue(q)} className="break-words text-accent hover:underline">{q}</Link>
            </Fragment>
          ))}
        </TD>
      </TR>
      {route.warning && (
        <TR>
          <TD colSpan={5} className="h-auto pt-0 pb-2">
            <p role="note" className="text-xs text-warning">
              {route.warning}
            </p>
          </TD>
        </TR>
      )}
    </Fragment>
  );
}
