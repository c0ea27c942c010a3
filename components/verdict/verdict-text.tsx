'use client';

import { SafeText } from '@/components/ui/safe-text';
import type { RoutingVerdictDto } from '@/lib/contract/routing-verdicts';
import { ExactTime } from '@/components/common/exact-time';
import { cn } from '@/lib/utils';
import { VerdictBadge } from './verdict-badge';

const EVIDENCE_LABEL: Record<RoutingVerdictDto['evidence'][number]['kind'], string> = {
  declared_route: 'Declared',
  no_declared_route: 'Not declared',
  server_consumes_queue: 'Server',
  no_server_on_queue: 'No server',
  seen_processing: 'Processing',
  seen_completed: 'Completed',
  handler_not_found: 'Handler not found',
  group_aggregation: 'Aggregation',
  published_routes: 'Published',
};

/** The core quotes names in backticks (`billing`): shown as code, the rest as text. */
function Quoted({ text }: { text: string }) {
  return text.split(/`([^`\n]*)`/).map((part, i) =>
    i % 2 === 1 ? (
      <code key={i} className="rounded bg-hover px-1 font-mono text-[0.92em]">
        <SafeText text={part} />
      </code>
    ) : (
      <SafeText key={i} text={part} />
    ),
  );
}

/**
 * One routing verdict as the core gave it: the badge and its one-sentence summary first, since
 * when it holds (UTC, as the summary writes times), the types an aggregator emits, and the evidence
 * behind it on expand. Every surface draws a verdict with this, so they cannot word it apart.
 */
export function VerdictText({ v, open = false, className }: { v: RoutingVerdictDto; open?: boolean; className?: string }) {
  return (
    <div data-testid="verdict" data-verdict={v.verdict} className={cn('flex min-w-0 flex-col gap-1 text-[13px]', className)}>
      <p className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <VerdictBadge verdict={v.verdict} />
        <span data-testid="verdict-summary" className={cn('min-w-0 break-words', v.verdict === 'conflict' ? 'font-medium text-warning' : 'text-fg')}>
          <Quoted text={v.summary} />
        </span>
      </p>
      {(v.since || (v.emits && v.emits.length > 0)) && (
        <p className="text-xs text-muted">
          {v.since && (
            <>
              Since <ExactTime iso={v.since} />
            </>
          )}
          {v.since && v.emits && v.emits.length > 0 && ' · '}
          {v.emits && v.emits.length > 0 && (
            <>
              The aggregator emits <span className="font-mono text-fg"><SafeText text={v.emits.join(', ')} /></span>
            </>
          )}
        </p>
      )}
      {v.evidence.length > 0 && (
        <details open={open} className="text-xs text-muted">
          <summary className="cursor-pointer select-none hover:text-fg">Evidence ({v.evidence.length})</summary>
          <ul data-testid="verdict-evidence" className="mt-1 flex flex-col gap-0.5 pl-4">
            {v.evidence.map((e, i) => (
              <li key={i} data-kind={e.kind} className="break-words">
                <span className="font-medium text-fg">{EVIDENCE_LABEL[e.kind]}:</span> <Quoted text={e.detail} />
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
