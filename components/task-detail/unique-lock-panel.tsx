'use client';

import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from '@/components/ui/link';
import { FindingCallouts } from '@/components/locks/finding-callouts';
import { HolderState } from '@/components/locks/lock-holder';
import { useLockRemaining } from '@/components/tasks/lock-badge';
import { Badge } from '@/components/ui/badge';
import { Panel } from '@/components/ui/panel';
import type { TaskDto, UniqueLockDto } from '@/lib/contract/tasks';
import { paths } from '@/lib/paths';
import { lockQuery } from '@/lib/query/locks';
import { usePollInterval } from '@/lib/query/use-poll-interval';
import { formatDuration } from '@/lib/utils';
import { FieldList } from './field-list';

function Remaining({ lock, fetchedAt }: { lock: UniqueLockDto; fetchedAt: number }) {
  const left = useLockRemaining(lock, fetchedAt);
  if (left === null) return <Badge>released</Badge>;
  if (left < 0) return <Badge tone="amber">no expiry</Badge>;
  if (left === 0) return <Badge>expired</Badge>;
  return (
    <span data-testid="lock-countdown" className="tabular font-medium">
      {formatDuration(left)}
    </span>
  );
}

/** The task's unique lock: its key, who holds it, a live countdown, and its findings. */
export function UniqueLockPanel({ task, fetchedAt }: { task: TaskDto; fetchedAt: number }) {
  const lock = task.uniqueLock;
  const held = lock !== null && lock.holderId !== null;
  const poll = usePollInterval();
  // The lock as the lock listing sees it: its holder's state and what is wrong with it.
  const { data } = useQuery({ ...lockQuery(task.queue, lock?.key ?? ''), ...poll, enabled: held });
  if (!lock) return null;
  const listed = held ? (data?.lock ?? null) : null;
  return (
    <Panel
      title="Unique lock"
      actions={
        lock.holderId !== null && (
          <Link href={paths.queueLocks(task.queue, { key: lock.key })} className="text-xs text-accent hover:underline">
            View lock
          </Link>
        )
      }
    >
      <FieldList
        fields={[
          ['Key', <code key="k" className="font-mono text-xs break-all">{lock.key}</code>],
          [
            'Holder',
            lock.holderId === null ? (
              <span key="h" className="text-subtle">nobody (lock gone)</span>
            ) : lock.ownedByThisTask ? (
              <span key="h">this task</span>
            ) : (
              <Link key="h" href={paths.task(task.queue, lock.holderId)} className="font-mono text-xs break-all text-accent hover:underline">
                {lock.holderId}
              </Link>
            ),
          ],
          ...(listed && !lock.ownedByThisTask ? [['Holder state', <HolderState key="s" lock={listed} />] satisfies [string, ReactNode]] : []),
          ['Expires in', <Remaining key="t" lock={lock} fetchedAt={fetchedAt} />],
        ]}
      />
      {listed && <FindingCallouts findings={listed.findings} className="mt-3" />}
    </Panel>
  );
}
