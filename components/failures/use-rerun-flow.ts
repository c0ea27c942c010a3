'use client';

import { useEffect, useRef, useState } from 'react';
import { plural } from '@/components/tasks/task-actions';
import { toast } from '@/components/ui/toaster';
import type { NotFoundCountDto, NotFoundGroupDto, RerunResultDto } from '@/lib/contract/triage';
import { fetchNotFoundCount, useRerunNotFound, type RerunProgress } from '@/lib/query/triage';

/** The not-found group of one type in one queue, as the re-run sees it. */
export type RerunTarget = Pick<NotFoundGroupDto, 'queue' | 'taskType' | 'retry' | 'archived' | 'listeners'>;

/** The count the confirmation stated, read from Redis as it opened. */
export type RerunCount = NotFoundCountDto;

export type RerunFlow =
  | { step: 'idle' }
  | { step: 'counting'; target: RerunTarget }
  | { step: 'confirm'; target: RerunTarget; count: RerunCount }
  | { step: 'running'; target: RerunTarget; count: RerunCount; progress: RerunProgress | null }
  | { step: 'done'; target: RerunTarget; count: RerunCount; result: RerunResultDto }
  | { step: 'stopped'; target: RerunTarget }
  | { step: 'error'; target: RerunTarget; error: unknown };

/**
 * Count (fresh from Redis, so the confirmation states the number at the moment it opens) →
 * confirm → run (streamed progress; Stop aborts the request, which stops the server between two
 * batches) → the exact number moved, set against the count. Closing the dialog stops a run.
 */
export function useRerunFlow() {
  const rerun = useRerunNotFound();
  const [flow, setFlow] = useState<RerunFlow>({ step: 'idle' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const unlessClosed = (next: (f: RerunFlow) => RerunFlow) => setFlow((f) => (f.step === 'idle' ? f : next(f)));

  const begin = (target: RerunTarget) => {
    abort.current?.abort();
    const ac = new AbortController();
    abort.current = ac;
    setFlow({ step: 'counting', target });
    fetchNotFoundCount(target.queue, target.taskType, ac.signal).then(
      (count) => unlessClosed((f) => (f.step === 'counting' ? { step: 'confirm', target, count } : f)),
      (error: unknown) => unlessClosed((f) => (f.step === 'counting' && !ac.signal.aborted ? { step: 'error', target, error } : f)),
    );
  };

  const confirm = () => {
    if (flow.step !== 'confirm') return;
    const { target, count } = flow;
    const ac = new AbortController();
    abort.current = ac;
    setFlow({ step: 'running', target, count, progress: null });
    rerun.mutate(
      {
        queue: target.queue,
        taskType: target.taskType,
        signal: ac.signal,
        onProgress: (progress) => unlessClosed((f) => (f.step === 'running' ? { ...f, progress } : f)),
      },
      {
        onSuccess: (result) => {
          toast(`Moved ${plural(result.succeeded, 'task')} of ${target.taskType} to pending`, result.failed.length > 0 ? 'error' : 'success');
          unlessClosed(() => ({ step: 'done', target, count, result }));
        },
        onError: (error) => unlessClosed(() => (ac.signal.aborted ? { step: 'stopped', target } : { step: 'error', target, error })),
      },
    );
  };

  return {
    flow,
    begin,
    confirm,
    stop: () => abort.current?.abort(),
    close: () => {
      abort.current?.abort();
      setFlow({ step: 'idle' });
    },
  };
}
