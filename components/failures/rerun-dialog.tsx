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
import type { RerunCount, RerunFlow, RerunTarget } from './use-rerun-flow';
import { useVerdict } from '@/components/verdict/use-verdicts';
import { VerdictText } from '@/components/verdict/verdict-text';
import { ExactTime } from '@/components/common/exact-time';
import { SafeText } from '@/components/ui/safe-text';

const Strong = ({ children }: { children: ReactNode }) => <strong className="break-all text-fg">{children}</strong>;

function Confirm({ target, count }: { target: RerunTarget; count: RerunCount }) {
  const n = count.retry + count.archived;
  const { verdict } = useVerdict(target.queue, target.taskType);
  if (n === 0) {
    return (
      <p data-testid="rerun-count">
        Nothing to re-run: no task of type <Strong><SafeText text={target.taskType} /></Strong> in queue <Strong><SafeText text={target.queue} /></Strong> is
        failing with &ldquo;handler not found&rdquo; any more (re-run, deleted or retried meanwhile).
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <p data-testid="rerun-count">
        Counted just now: the {plural(n, 'task')} of type <Strong><SafeText text={target.taskType} /></Strong> in queue <Strong><SafeText text={target.queue} /></Strong> that
        failed with &ldquo;handler not found&rdquo; ({failedCounts(count.retry, count.archived)}) move to pending and run as soon as a worker takes them.
        Tasks that fail the same way before you confirm are moved too; the result gives the exact number.
      </p>
      <p>
        Do this <span className="text-fg">after</span> every server that consumes <Strong><SafeText text={target.queue} /></Strong> has a handler for it: otherwise
        they fail the same way again. What the fleet does with it now:
      </p>
      {verdict ? <VerdictText v={verdict} /> : <p className="text-xs">Reading the routing verdict…</p>}
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

/** Why the number moved differs from the one the confirmation stated: tasks arrived or left between the two reads. */
function Difference({ count, result }: { count: RerunCount; result: RerunResultDto }) {
  const parts = (['archived', 'retry'] as const).flatMap((s) => {
    const found = result.byState[s]?.found ?? 0;
    const d = found - count[s];
    if (d === 0) return [];
    return [d > 0 ? `${plural(d, `more ${s} task`)} failed the same way meanwhile` : `${plural(-d, `${s} task`)} left meanwhile (retried by a worker, deleted, archived or re-run elsewhere)`];
  });
  if (parts.length === 0) return null;
  const counted = count.retry + count.archived;
  return (
    <p data-testid="rerun-difference">
      The confirmation counted {formatNumber(counted)} at <ExactTime iso={count.countedAt} />; when the re-run read the queue, {parts.join(', and ')}.
    </p>
  );
}

function Done({ target, count, result }: { target: RerunTarget; count: RerunCount; result: RerunResultDto }) {
  const parts = (['archived', 'retry'] as const).flatMap((s) => {
    const o = result.byState[s];
    return o && o.found > 0 ? [`${formatNumber(o.succeeded)} of ${formatNumber(o.found)} ${s}`] : [];
  });
  return (
    <div className="flex flex-col gap-2" data-testid="rerun-result">
      <p className="text-fg">
        Moved {plural(result.succeeded, 'task')} to pending{parts.length > 0 && ` (${parts.join(', ')})`}.
      </p>
      <Difference count={count} result={result} />
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

/** States the exact count read as it opens, then the progress, then the exact number moved and why it differs. */
export function RerunDialog({ flow, onConfirm, onStop, onClose }: Props) {
  if (flow.step === 'idle') return null;
  const { target } = flow;
  const asking = flow.step === 'confirm' || flow.step === 'counting';
  const close = <Button onClick={onClose}>{asking ? 'Cancel' : 'Close'}</Button>;
  let title = `Re-run the failed ${target.taskType} tasks?`;
  let body: ReactNode;
  let footer: ReactNode = close;
  if (flow.step === 'counting') {
    body = <p role="status">Counting the tasks in Redis…</p>;
  } else if (flow.step === 'confirm') {
    const n = flow.count.retry + flow.count.archived;
    title = `Re-run ${plural(n, 'task')} of ${target.taskType}?`;
    body = <Confirm target={target} count={flow.count} />;
    footer = (
      <>
        {close}
        {n > 0 && (
          <Button variant="primary" onClick={onConfirm} autoFocus>
            Re-run {formatNumber(n)}
          </Button>
        )}
      </>
    );
  } else if (flow.step === 'running') {
    const n = flow.count.retry + flow.count.archived;
    title = `Re-running ${plural(n, 'task')}…`;
    body = <Progress progress={flow.progress} />;
    footer = <Button onClick={onStop}>Stop</Button>;
  } else if (flow.step === 'done') {
    title = 'Re-run done';
    body = <Done target={target} count={flow.count} result={flow.result} />;
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
