'use client';

import { useEffect, useRef, useState } from 'react';
import { ACTION_LABEL, plural } from '@/components/tasks/task-actions';
import { toast } from '@/components/ui/toaster';
import type { SearchActResultDto } from '@/lib/contract/search';
import type { QueryPairs } from '@/lib/paths';
import type { BulkAction } from '@/lib/contract/task-actions';
import { actsOnEverything, useSearchAct, type ActProgress } from '@/lib/query/search';

export type ActFlow =
  | { step: 'idle' }
  | { step: 'counting'; action: BulkAction; progress: ActProgress | null }
  | { step: 'confirm'; action: BulkAction; count: number; byQueue: Record<string, number>; scanned: number; total: number }
  | { step: 'acting'; action: BulkAction; count: number; progress: ActProgress | null }
  | { step: 'done'; action: BulkAction; result: SearchActResultDto }
  | { step: 'stopped'; action: BulkAction; progress: ActProgress | null; during: 'count' | 'act' }
  | { step: 'error'; action: BulkAction; error: unknown };

function report(action: BulkAction, r: SearchActResultDto) {
  const trimmed = r.trimmed > 0 ? `; asynq's archive limit deleted ${plural(r.trimmed, 'older archived task')}` : '';
  const done = `${ACTION_LABEL[action].past} ${plural(r.succeeded, 'task')}${trimmed}`;
  if (r.failedCount === 0) toast(done, 'success');
  else toast(`${done}; ${plural(r.failedCount, 'task')} could not be changed.`, 'error');
}

/**
 * Acting on every match, in two requests: a preview that counts what the action would touch,
 * then (once confirmed) the action itself. Both stream progress; Stop aborts the request,
 * which stops the server between two Redis calls. Closing the dialog stops anything running.
 */
export function useActFlow(filter: QueryPairs) {
  const act = useSearchAct();
  const [flow, setFlow] = useState<ActFlow>({ step: 'idle' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const run = (action: BulkAction, preview: boolean, count = 0) => {
    const ac = new AbortController();
    abort.current = ac;
    setFlow(preview ? { step: 'counting', action, progress: null } : { step: 'acting', action, count, progress: null });
    const unlessClosed = (next: (f: ActFlow) => ActFlow) => setFlow((f) => (f.step === 'idle' ? f : next(f)));
    act.mutate(
      {
        filter,
        action,
        preview,
        // Only the confirmed action, after the dialog said it reaches every task of every queue.
        all: !preview && actsOnEverything(filter),
        signal: ac.signal,
        onProgress: (progress) => unlessClosed((f) => (f.step === 'counting' || f.step === 'acting' ? { ...f, progress } : f)),
      },
      {
        onSuccess: (r) => {
          if (!r.preview) report(action, r);
          unlessClosed(() => (r.preview ? { step: 'confirm', action, count: r.count, byQueue: r.byQueue, scanned: r.scanned, total: r.total } : { step: 'done', action, result: r }));
        },
        onError: (error) =>
          unlessClosed((f) =>
            ac.signal.aborted
              ? { step: 'stopped', action, progress: 'progress' in f ? f.progress : null, during: preview ? 'count' : 'act' }
              : { step: 'error', action, error },
          ),
      },
    );
  };

  return {
    flow,
    begin: (action: BulkAction) => run(action, true),
    confirm: () => flow.step === 'confirm' && run(flow.action, false, flow.count),
    stop: () => abort.current?.abort(),
    close: () => {
      abort.current?.abort();
      setFlow({ step: 'idle' });
    },
  };
}
