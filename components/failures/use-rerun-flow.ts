'use client';

import { useEffect, useRef, useState } from 'react';
import { plural } from '@/components/tasks/task-actions';
import { toast } from '@/components/ui/toaster';
import type { NotFoundGroupDto, RerunResultDto } from '@/lib/contract/triage';
import { useRerunNotFound, type RerunProgress } from '@/lib/query/triage';

/** The not-found group of one type in one queue, as the re-run sees it. */
export type RerunTarget = Pick<NotFoundGroupDto, 'queue' | 'taskType' | 'retry' | 'archived' | 'listeners'>;

export type RerunFlow =
  | { step: 'idle' }
  | { step: 'confirm'; target: RerunTarget }
  | { step: 'running'; target: RerunTarget; progress: RerunProgress | null }
  | { step: 'done'; target: RerunTarget; result: RerunResultDto }
  | { step: 'stopped'; target: RerunTarget }
  | { step: 'error'; target: RerunTarget; error: unknown };

/**
 * Confirm → run (streamed progress; Stop aborts the request, which stops the server between two
 * batches) → counts. Closing the dialog stops a run in progress.
 */
export function useRerunFlow() {
  const rerun = useRerunNotFound();
  const [flow, setFlow] = useState<RerunFlow>({ step: 'idle' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const confirm = () => {
    if (flow.step !== 'confirm') return;
    const { target } = flow;
    const ac = new AbortController();
    abort.current = ac;
    setFlow({ step: 'running', target, progress: null });
    const unlessClosed = (next: (f: RerunFlow) => RerunFlow) => setFlow((f) => (f.step === 'idle' ? f : next(f)));
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
          unlessClosed(() => ({ step: 'done', target, result }));
        },
        onError: (error) => unlessClosed(() => (ac.signal.aborted ? { step: 'stopped', target } : { step: 'error', target, error })),
      },
    );
  };

  return {
    flow,
    begin: (target: RerunTarget) => setFlow({ step: 'confirm', target }),
    confirm,
    stop: () => abort.current?.abort(),
    close: () => {
      abort.current?.abort();
      setFlow({ step: 'idle' });
    },
  };
}
