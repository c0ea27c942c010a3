'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { useDebounced } from '@/components/common/use-debounced';
import { encodePayload } from '@/components/payload/payload-draft';
import { FieldList } from '@/components/task-detail/field-list';
import { useLockRemaining } from '@/components/tasks/lock-badge';
import { Badge } from '@/components/ui/badge';
import { Link } from '@/components/ui/link';
import { Panel } from '@/components/ui/panel';
import type { EnqueueCheckDto } from '@/lib/contract/mutations';
import { paths } from '@/lib/paths';
import { enqueueCheckQuery, type EnqueueCheckInput } from '@/lib/query/enqueue';
import { usePollInterval } from '@/lib/query/use-poll-interval';
import { formatDuration } from '@/lib/utils';
import type { EnqueueDraft } from './enqueue-draft';
import { EnqueueVerdict } from './enqueue-verdict';
import { SafeText } from '@/components/ui/safe-text';

/** What the pre-check needs from the draft; null while the draft cannot be checked yet. */
function checkInput(d: EnqueueDraft): { queue: string; body: EnqueueCheckInput } | null {
  const p = encodePayload(d.payload);
  if (d.queue.trim() === '' || d.type.trim() === '' || !p.ok) return null;
  return { queue: d.queue, body: { type: d.type, payload: p.payload, payloadEncoding: p.encoding, taskId: d.taskId || undefined, unique: d.unique } };
}

function LockRow({ lock, queue, fetchedAt }: { lock: NonNullable<EnqueueCheckDto['lock']>; queue: string; fetchedAt: number }) {
  const left = useLockRemaining({ key: '', ttlSeconds: lock.ttlSeconds, holderId: lock.holderId, ownedByThisTask: false }, fetchedAt);
  if (!lock.held || left === 0) return <span><Badge tone="green">free</Badge> this enqueue would take the lock</span>;
  return (
    <span className="flex flex-col gap-0.5" data-testid="precheck-lock">
      <span>
        <Badge tone="amber">held</Badge> by{' '}
        {lock.holderId ? (
          <Link href={paths.task(queue, lock.holderId)} className="font-mono text-xs break-all text-accent hover:underline"><SafeText text={lock.holderId} /></Link>
        ) : 'an unknown task'}
        {lock.holderState && <span className="text-muted"> ({lock.holderState})</span>}
      </span>
      <span className="text-muted">
        {left === null ? '' : left < 0 ? 'No expiry.' : `Ends in ${formatDuration(left)}.`} Enqueueing now is refused (duplicate_task).
      </span>
    </span>
  );
}

function TaskIdRow({ id, queue }: { id: NonNullable<EnqueueCheckDto['taskId']>; queue: string }) {
  if (!id.taken) return <span><Badge tone="green">free</Badge> <code className="font-mono text-xs break-all"><SafeText text={id.id} /></code></span>;
  return (
    <span data-testid="precheck-task-id">
      <Badge tone="red">taken</Badge> by {id.state ? `${/^[aeiou]/.test(id.state) ? 'an' : 'a'} ${id.state}` : 'a'} task:{' '}
      <Link href={paths.task(queue, id.id)} className="font-mono text-xs break-all text-accent hover:underline">{id.id}</Link>
      <span className="text-muted"> — refused (task_id_conflict)</span>
    </span>
  );
}

/**
 * "Before you press the button": the unique key this enqueue would use and who holds that lock
 * now, whether its task ID is free, and the fleet's routing verdict of its type on the queue. Re-read as the form changes (debounced) and on the poll.
 * Only advice: another client may enqueue in between.
 */
export function PrecheckPanel({ draft }: { draft: EnqueueDraft }) {
  const input = useDebounced(useMemo(() => checkInput(draft), [draft]), 350);
  const poll = usePollInterval();
  const q = useQuery({ ...enqueueCheckQuery(input?.queue ?? '', input?.body ?? { type: '' }), enabled: input !== null, ...poll });
  const data = input ? q.data : undefined;
  return (
    <Panel title={<span className="flex items-center gap-2">Pre-check {q.isFetching && <span className="text-xs font-normal text-subtle">checking…</span>}</span>} aria-label="Pre-check">
      {!input ? (
        <p className="text-xs text-muted">Fill in a queue, a type and a valid payload to see what this enqueue would meet.</p>
      ) : q.error ? (
        <p role="alert" className="text-xs text-danger">{q.error.message}</p>
      ) : (
        <FieldList
          fields={[
            ['Unique key', data?.uniqueKey ? <code key="k" className="font-mono text-xs break-all"><SafeText text={data.uniqueKey} /></code>
 : <span key="k" className="text-muted">not unique: no lock is taken</span>],
            ...(data?.lock ? [['Lock now', <LockRow key="l" lock={data.lock} queue={input.queue} fetchedAt={q.dataUpdatedAt} />] as [string, ReactNode]] : []),
            ['Task ID', data?.taskId ? <TaskIdRow key="t" id={data.taskId} queue={input.queue} /> : <span key="t" className="text-muted">a new random UUID</span>],
            ...(data?.routing ? [['Handler', <EnqueueVerdict key="v" v={data.routing} />] as [string, ReactNode]] : []),
          ]}
        />
      )}
    </Panel>
  );
}
