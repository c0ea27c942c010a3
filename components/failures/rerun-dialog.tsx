'use client';

import type { ReactNode } from 'react';
import { plural } from '@/components/tasks/task-actions';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Link } from '@/components/ui/link';
import type { RerunResultDto } from '@/lib/contract/triage';
import { paths } from '@/lib/paths';
import type { RerunProgress } from '@/lib/query/triage';
import { formatNumber } from '@/lib/utils';
import { failedCounts } from './counts';
import type { RerunFlow, RerunTarget } from './use-rerun-flow';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';

const Strong = ({ children }: { children: ReactNode }) => <strong className="break-all text-fg">{children}</strong>;

function Confirm({ target }: { target: RerunTarget }) {
  const n = target.retry + target.archived;
  const hosts = target.listeners.map((l) => `${l.host} (pid ${l.pid})`).join(', ');
  return (
    <div className="flex flex-col gap-2">
      <p>
        The {plural(n, 'task')} of type <Strong><SafeText text={target.taskType} /></Strong> in queue <Strong><SafeText text={target.queue} /></Strong> that failed with
        &ldquo;handler not found&rdquo; ({failedCounts(target.retry, target.archived)}) move to pending and run as
        soon as a worker takes them.
      </p>
      <p>
        Do this <span className="text-fg">after</span> a worker with a handler for <Strong><SafeText text={target.taskType} /></Strong> is deployed: otherwise they
        fail the same way again.
      </p>
      <p className="text-xs">
        {escapeText(hosts
          ? `Listening on ${target.queue} now: ${hosts}. Servers do not publish which handlers they register, so this cannot be checked from Redis.`
          : `No server is listening on ${target.queue} right now: the tasks will wait in pending until one starts.`)}

      </p>
    </div>
  );
}

function Progress({ progress }: { progress: RerunProgress | null }) {
  const ratio = progress && progress.total > 0 ? Math.min(1, progress.done / progress.total) : 0;
  const what = progress ? `${progress.phase === 'scanning' ? 'Finding' : 'Moving'} ${progress.state} tasks: ${formatNumber(progress.done)} of ${formatNumber(progress.total)}` : 'Starting…';
  return (
    <div role="status" className="flex flex-col gap-1.5">
      <p>{what}</p>
      <div className="h-1.5 overflow-hidden rounded-full bg-hover">
        <div className="h-full rounded-full bg-accent transition-[width] duration-300" style={{ width: `${ratio * 100}%` }} />
      </div>
    </div>
  );
}

function Done({ target, result }: { target: RerunTarget; result: RerunResultDto }) {
  const parts = (['archived', 'retry'] as const).flatMap((s) => {
    const o = result.byState[s];
    return o && o.found > 0 ? [`${formatNumber(o.succeeded)} of ${formatNumber(o.found)} ${s}`] : [];
  });
  return (
    <div className="flex flex-col gap-2" data-testid="rerun-result">
      <p className="text-fg">
        Moved {plural(result.succeeded, 'task')} to pending{parts.length > 0 && ` (${parts.join(', ')})`}.
      </p>
      {result.failed.length > 0 && (
        <div>
          <p className="text-danger">{plural(result.failed.length, 'task')} could not be moved (changed state meanwhile, or running):</p>
          <ul className="mt-1 max-h-40 overflow-auto font-mono text-xs">
            {result.failed.slice(0, 50).map((f) => (
              <li key={f.id} className="truncate">
                <Link href={paths.task(target.queue, f.id)} className="text-accent hover:underline"><SafeText text={f.id} /></Link>: <SafeText text={f.error.message} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {result.stopped && <p>It stopped before the end; run it again for the rest.</p>}
      <p>
        <Link href={paths.queue(target.queue, { state: 'pending' })} className="text-accent hover:underline">
          See the pending tasks of <SafeText text={target.queue} />

        </Link>
      </p>
    </div>
  );
}

interface Props {
  flow: RerunFlow;
  onConfirm: () => void;
  onStop: () => void;
  onClose: () => void;
}

/** States the exact count before anything moves, then the progress and the outcome. */
export function RerunDialog({ flow, onConfirm, onStop, onClose }: Props) {
  if (flow.step === 'idle') return null;
  const { target } = flow;
  const n = target.retry + target.archived;
  const close = <Button onClick={onClose}>{flow.step === 'confirm' ? 'Cancel' : 'Close'}</Button>;
  let title = `Re-run ${plural(n, 'task')} of ${target.taskType}?`;
  let body: ReactNode;
  let footer: ReactNode = close;
  if (flow.step === 'confirm') {
    body = <Confirm target={target} />;
    footer = (
      <>
        {close}
        <Button variant="primary" onClick={onConfirm} autoFocus>
          Re-run {formatNumber(n)}
        </Button>
      </>
    );
  } else if (flow.step === 'running') {
    title = `Re-running ${plural(n, 'task')}…`;
    body = <Progress progress={flow.progress} />;
    footer = <Button onClick={onStop}>Stop</Button>;
  } else if (flow.step === 'done') {
    title = 'Re-run done';
    body = <Done target={target} result={flow.result} />;
  } else if (flow.step === 'stopped') {
    title = 'Stopped';
    body = <p>Stopped between two batches: the tasks moved so far stay pending, the rest stay where they were.</p>;
  } else {
    title = 'The re-run failed';
    body = <p role="alert" className="text-danger">{flow.error instanceof Error ? flow.error.message : String(flow.error)}</p>;
  }
  return (
    <Dialog open onClose={onClose} title={title} footer={footer}>
      {body}
    </Dialog>
  );
}
