'use client';

import { Link } from '@/components/ui/link';
import { useLockRemaining } from '@/components/tasks/lock-badge';
import { Badge } from '@/components/ui/badge';
import { Panel } from '@/components/ui/panel';
import type { TaskDto, UniqueLockDto } from '@/lib/contract/tasks';
import { paths } from '@/lib/paths';
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

/** The task's unique lock: its key, who holds it, and a live countdown to its expiry. */
export function UniqueLockPanel({ task, fetchedAt }: { task: TaskDto; fetchedAt: number }) {
  const lock = task.uniqueLock;
  if (!lock) return null;
  return (
    <Panel title="Unique lock">
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
          ['Expires in', <Remaining key="t" lock={lock} fetchedAt={fetchedAt} />],
        ]}
      />
    </Panel>
  );
}
