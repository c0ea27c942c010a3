import type { ReactNode } from 'react';
import { ExactTime } from '@/components/common/exact-time';
import { FieldList } from '@/components/task-detail/field-list';
import { StateBadge } from '@/components/tasks/state-badge';
import { Link } from '@/components/ui/link';
import type { FailureGroupDto } from '@/lib/contract/triage';
import { paths } from '@/lib/paths';
import { formatNumber } from '@/lib/utils';
import { failedCounts } from './counts';
import { SafeText } from '@/components/ui/safe-text';

function ByQueue({ group }: { group: FailureGroupDto }) {
  return (
    <ul className="flex flex-col gap-0.5">
      {group.queues.map((q) => (
        <li key={q.queue} className="tabular">
          <Link href={paths.queue(q.queue, { state: q.archived > 0 ? 'archived' : 'retry' })} className="break-words text-accent underline underline-offset-2">
            <SafeText text={q.queue} />
          </Link>
          <span className="text-muted"> · {failedCounts(q.retry, q.archived)}</span>
        </li>
      ))}
    </ul>
  );
}

function Samples({ group }: { group: FailureGroupDto }) {
  return (
    <ul className="flex flex-col gap-1">
      {group.samples.map((s) => (
        <li key={`${s.queue}\n${s.id}`} className="flex min-w-0 items-center gap-1.5">
          <StateBadge state={s.state} />
          <Link href={paths.task(s.queue, s.id)} className="truncate font-mono text-xs text-accent hover:underline">
            <SafeText text={s.id} />
          </Link>
          {group.queues.length > 1 && <span className="truncate text-xs text-muted">in <SafeText text={s.queue} /></span>}
        </li>
      ))}
    </ul>
  );
}

/** The most recent stored message, as text: it is whatever the handler returned (untrusted). */
export function ExampleMessage({ label, message }: { label: string; message: string }) {
  return (
    <div className="flex flex-col gap-1">
      <p className="text-xs text-muted">{label}</p>
      <pre className="max-h-48 overflow-auto rounded-md border border-line bg-bg-subtle px-2 py-1.5 font-mono text-xs break-all whitespace-pre-wrap text-danger">
        <SafeText text={message} keepLineBreaks />
      </pre>
    </div>
  );
}

/** A group's counts by queue and type, when it was seen, and sample tasks. */
export function GroupFacts({ group, showTypes = true }: { group: FailureGroupDto; showTypes?: boolean }) {
  const types = group.taskTypes.map((t) => `${t.taskType} (${formatNumber(t.count)})`).join(', ');
  const fields: [string, ReactNode][] = [['By queue', <ByQueue key="q" group={group} />]];
  if (showTypes) {
    const more = group.otherTypes > 0 ? ` and ${formatNumber(group.otherTypes)} more tasks of other types` : '';
    fields.push(['Task types', <span key="t" className="font-mono text-xs break-words"><SafeText text={types} />{more}</span>]);

  }
  fields.push(
    ['First failed', <ExactTime key="f" iso={group.firstSeenAt} />],
    ['Last failed', <ExactTime key="l" iso={group.lastSeenAt} />],
    ['Retries spent', <span key="r" className="tabular">{formatNumber(group.retriesSpent)}</span>],
    ['Sample tasks', <Samples key="s" group={group} />],
  );
  return <FieldList fields={fields} />;
}
