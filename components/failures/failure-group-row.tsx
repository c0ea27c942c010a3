import { RelativeTime } from '@/components/common/relative-time';
import { Badge } from '@/components/ui/badge';
import { Icon } from '@/components/ui/icons';
import type { FailureGroupDto } from '@/lib/contract/triage';
import { formatNumber, preview } from '@/lib/utils';
import { ExampleMessage, GroupFacts } from './group-facts';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';

function TypeList({ group }: { group: FailureGroupDto }) {
  const shown = group.taskTypes.slice(0, 2);
  const rest = group.taskTypes.length - shown.length;
  return (
    <span className="truncate font-mono text-xs text-muted">
      <SafeText text={shown.map((t) => t.taskType).join(', ')} />
      {rest > 0 && ` +${rest}`}
    </span>
  );
}

/**
 * One error signature: a summary line (the normalised message, counts, types, last seen) that
 * opens on the group's queues, times, samples and latest raw message. A native <details>, so it
 * needs no script and keeps its own open state.
 */
export function FailureGroupRow({ group }: { group: FailureGroupDto }) {
  return (
    <details className="group border-b border-line last:border-b-0" data-testid="failure-group">
      <summary className="grid cursor-pointer list-none grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 px-3 py-2 hover:bg-hover md:grid-cols-[auto_minmax(0,1fr)_minmax(0,14rem)_auto_auto]">
        <Icon name="chevronRight" size={12} className="text-muted transition-transform group-open:rotate-90" />
        <span className="truncate font-mono text-xs" title={escapeText(group.signature)}>
          {group.signature ? <SafeText text={preview(group.signature, 200)} /> : <span
 className="font-sans text-subtle italic">(no error message)</span>}
        </span>
        <span className="hidden min-w-0 md:flex">
          <TypeList group={group} />
        </span>
        <span className="tabular flex items-center gap-1">
          <Badge>{formatNumber(group.count)}</Badge>
          {group.retry > 0 && <Badge tone="amber">{formatNumber(group.retry)} retry</Badge>}
          {group.archived > 0 && <Badge tone="red">{formatNumber(group.archived)} archived</Badge>}
        </span>
        <span className="hidden text-xs whitespace-nowrap text-muted md:inline">
          <RelativeTime iso={group.lastSeenAt} />
        </span>
      </summary>
      <div className="flex flex-col gap-3 border-t border-line bg-bg-subtle/50 px-3 py-3 md:pl-9">
        <GroupFacts group={group} />
        <ExampleMessage label="Latest message" message={group.exampleMessage} />
      </div>
    </details>
  );
}
