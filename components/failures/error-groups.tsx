import { EmptyState } from '@/components/common/states';
import { plural } from '@/components/tasks/task-actions';
import { Panel } from '@/components/ui/panel';
import type { FailureGroupDto, FailuresDto } from '@/lib/contract/triage';
import { FailureGroupRow } from './failure-group-row';

/** Every other failure, one row per error signature (IDs and numbers normalised away). */
export function ErrorGroups({ data, groups }: { data: FailuresDto; groups: FailureGroupDto[] }) {
  const unlisted = data.totalGroups - data.groups.length;
  return (
    <Panel
      flush
      title={<>Other errors <span className="font-normal text-muted">· {plural(groups.length, 'signature')}</span></>}
      aria-label="Other errors"
    >
      {groups.length === 0 ? (
        <EmptyState title={data.complete ? 'No other errors' : 'None so far'}>
          {data.complete ? 'Every failed task here failed because no handler was found.' : 'The scan is still reading.'}
        </EmptyState>
      ) : (
        <div>
          {groups.map((g) => (
            <FailureGroupRow key={g.signature} group={g} />
          ))}
        </div>
      )}
      {(unlisted > 0 || data.ungrouped > 0) && (
        <p className="border-t border-line px-3 py-2 text-xs text-muted">
          {unlisted > 0 && `${plural(unlisted, 'more signature')} not listed (the largest come first). `}
          {data.ungrouped > 0 && `${plural(data.ungrouped, 'task')} not grouped: 10,000 signatures were already tracked.`}
        </p>
      )}
    </Panel>
  );
}
