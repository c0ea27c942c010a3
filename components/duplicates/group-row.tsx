'use client';

import { StateBadge } from '@/components/tasks/state-badge';
import { plural } from '@/components/tasks/task-actions';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';
import { TD } from '@/components/ui/table';
import type { DuplicateGroupDto } from '@/lib/contract/diagnostics';
import { paths } from '@/lib/paths';
import { cn, formatNumber } from '@/lib/utils';
import { stateMix } from './keep-one';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';

/** Why a group's tasks count as duplicates: the same bytes, or the same but for fields that vary. */
export function GroupReason({ group }: { group: DuplicateGroupDto }) {
  if (group.kind === 'exact') {
    return (
      <span className="text-muted">
        same payload{' '}
        <code className="font-mono text-xs" title={group.payloadMd5 ?? undefined}>
          {group.payloadMd5 ? `md5 ${group.payloadMd5.slice(0, 12)}` : ''}
        </code>
      </span>
    );
  }
  const fields = group.varyingFields;
  return (
    <span className="text-muted">
      not canonical because{' '}
      {fields.length === 0 ? (
        'key order or spacing differs'
      ) : (
        <>
          {fields.map((f, i) => (
            <span key={f}>
              {i > 0 && (i === fields.length - 1 ? ' and ' : ', ')}
              <code className="rounded bg-hover px-1 font-mono text-xs text-fg">{f}</code>
            </span>
          ))}{' '}
          {fields.length === 1 ? 'varies' : 'vary'}
        </>
      )}
      <span className="text-subtle"> · {plural(group.distinctPayloads, 'distinct payload')}</span>
    </span>
  );
}

interface Props {
  qname: string;
  group: DuplicateGroupDto;
  open: boolean;
  onToggle: () => void;
  /** Null in read-only mode. */
  onKeepOne: (() => void) | null;
}

/** One group; opened, its tasks (oldest first) with the one "keep one" keeps marked. */
export function GroupRow({ qname, group, open, onToggle, onKeepOne }: Props) {
  const unlisted = group.count - group.tasks.length;
  const columns = onKeepOne ? 7 : 6;
  return (
    <tbody className="border-b border-line last:border-b-0" data-group-id={group.id}>
      <tr className={cn('cursor-pointer hover:bg-hover', open && 'bg-bg-subtle')} onClick={(e) => !(e.target as HTMLElement).closest('a,button') && onToggle()}>
        <TD className="w-6 pr-0 text-subtle">
          <button type="button" aria-expanded={open} aria-label={`${open ? 'Hide' : 'Show'} the tasks of ${group.taskType} (${group.kind})`} onClick={onToggle}>
            <Icon name={open ? 'chevronDown' : 'chevronRight'} size={12} />
          </button>
        </TD>
        <TD>
          <Badge tone={group.kind === 'exact' ? 'red' : 'amber'}>{group.kind}</Badge>
        </TD>
        <TD className="max-w-52 truncate font-medium" title={escapeText(group.taskType)}>
          <SafeText text={group.taskType} />
        </TD>
        <TD className="tabular text-right">{formatNumber(group.count)}</TD>
        <TD className="min-w-64">
          <GroupReason group={group} />
        </TD>
        <TD>
          <span className="flex flex-wrap gap-1" title={unlisted > 0 ? `Of the ${group.tasks.length} tasks listed: ${stateMix(group)}` : stateMix(group)}>
            {[...new Set(group.tasks.map((t) => t.state))].map((s) => (
              <StateBadge key={s} state={s} />
            ))}
          </span>
        </TD>
        {onKeepOne && (
          <TD className="w-28 px-1 text-right">
            <Button size="sm" onClick={onKeepOne} aria-label={`Keep one of ${group.taskType} (${group.kind}), delete ${group.count - 1}`}>
              Keep one
            </Button>
          </TD>
        )}
      </tr>
      {open && (
        <tr className="bg-bg-subtle">
          <td colSpan={columns} className="px-3 pb-3 pl-9">
            <ol className="flex flex-col divide-y divide-line rounded-md border border-line bg-panel" aria-label={`Tasks of ${escapeText(group.taskType)}`}>
              {group.tasks.map((t, i) => (
                <li key={t.id} className="flex items-center gap-2 px-2.5 py-1.5 text-xs">
                  <Link href={paths.task(qname, t.id)} className="truncate font-mono text-accent hover:underline">
                    <SafeText text={t.id} />

                  </Link>
                  <StateBadge state={t.state} />
                  {i === 0 ? <Badge tone="green">kept by “keep one”</Badge> : null}
                </li>
              ))}
              {unlisted > 0 && (
                <li className="px-2.5 py-1.5 text-xs text-muted">
                  and {plural(unlisted, 'more task')} (the scan names the first {group.tasks.length}; “keep one” lists them all first)
                </li>
              )}
            </ol>
          </td>
        </tr>
      )}
    </tbody>
  );
}
