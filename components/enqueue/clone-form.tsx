'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { bytesToBase64, utf8OrNull } from '@/components/payload/bytes';
import { ErrorState } from '@/components/common/states';
import { Link } from '@/components/ui/link';
import { Panel } from '@/components/ui/panel';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/lib/paths';
import { taskPayloadQuery, taskQuery } from '@/lib/query/tasks';
import { formatDuration } from '@/lib/utils';
import { draftFromTask, FALLBACK_UNIQUE_TTL_S, uniqueTtlGuessed } from './enqueue-draft';
import { EnqueueForm } from './enqueue-form';

/**
 * The form filled from an existing task: type, payload (in full, even past the detail view's
 * 1 MiB cut), queue and every option the task record keeps. The original is left alone.
 */
export function CloneForm({ queue, taskId, readOnly }: { queue: string; taskId: string; readOnly: boolean | undefined }) {
  const task = useQuery(taskQuery(queue, taskId));
  const full = useQuery({ ...taskPayloadQuery(queue, taskId), enabled: !!task.data?.payloadTruncated });
  const draft = useMemo(() => {
    const t = task.data;
    if (!t || (t.payloadTruncated && !full.data)) return null;
    if (!full.data) return draftFromTask(t, { text: t.payload, encoding: t.payloadEncoding });
    const text = utf8OrNull(full.data);
    return draftFromTask(t, text === null ? { text: bytesToBase64(full.data), encoding: 'base64' } : { text, encoding: 'utf8' });
  }, [task.data, full.data]);
  const error = task.error ?? full.error;
  if (error) return <Panel><ErrorState error={error} title="Could not read the task to clone" onRetry={() => void task.refetch()} /></Panel>;
  if (!draft) return <Skeleton className="h-96 w-full" />;
  return (
    <>
      <p role="status" className="rounded-lg border border-accent/30 bg-accent-soft px-3 py-2 text-[13px]">
        Cloned from{' '}
        <Link href={paths.task(queue, taskId)} className="font-mono text-xs text-accent hover:underline">{taskId}</Link>. Change anything, then
        enqueue: the original is not touched.
        {task.data && uniqueTtlGuessed(task.data) && (
          <span data-testid="unique-ttl-guessed">
            {' '}asynq does not keep a task’s unique TTL and this task’s lock no longer tells it: {formatDuration(FALLBACK_UNIQUE_TTL_S)} is filled in, change it if the original differed.
          </span>
        )}
      </p>
      <EnqueueForm key={`${queue}\n${taskId}`} initial={draft} readOnly={readOnly} />
    </>
  );
}
