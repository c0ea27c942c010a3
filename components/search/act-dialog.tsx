'use client';

import type { ReactNode } from 'react';
import { ArchiveLimitWarning, useArchiveLimit } from '@/components/tasks/archive-limit-check';
import { ACTION_LABEL, plural } from '@/components/tasks/task-actions';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Link } from '@/components/ui/link';
import type { BulkAction } from '@/lib/contract/task-actions';
import { paths } from '@/lib/paths';
import type { ActProgress } from '@/lib/query/search';
import { formatNumber } from '@/lib/utils';
import type { ActFlow } from './use-act-flow';

/** A search's matches may be many and in several states, so delete says it plainly. */
const outcome = (a: BulkAction) => (a === 'delete' ? 'deleted for good' : ACTION_LABEL[a].outcome);

function Progress({ progress, label }: { progress: ActProgress | null; label: string }) {
  const ratio = progress && progress.total > 0 ? Math.min(1, progress.scanned / progress.total) : 0;
  return (
    <div role="status" className="flex flex-col gap-1.5">
      <p>
        {label}{' '}
        {progress
          ? `${formatNumber(Math.min(progress.scanned, progress.total))} of ${formatNumber(progress.total)} tasks read; ${formatNumber(progress.matched)} matched${progress.succeeded ? `, ${formatNumber(progress.succeeded)} done` : ''}.`
          : 'starting…'}
      </p>
      <div className="h-1.5 overflow-hidden rounded-full bg-hover">
        <div className="h-full rounded-full bg-accent transition-[width] duration-300" style={{ width: `${ratio * 100}%` }} />
      </div>
    </div>
  );
}

function Done({ flow }: { flow: Extract<ActFlow, { step: 'done' }> }) {
  const r = flow.result;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-fg">
        {ACTION_LABEL[flow.action].past} {plural(r.succeeded, 'task')} of {formatNumber(r.matched)} matched.
      </p>
      {r.trimmed > 0 && <p>asynq&apos;s archive limit deleted {plural(r.trimmed, 'older archived task')} to make room.</p>}
      {r.failedCount > 0 && (
        <div>
          <p className="text-danger">{plural(r.failedCount, 'task')} could not be changed (they changed state meanwhile, or are running):</p>
          <ul className="mt-1 max-h-40 overflow-auto font-mono text-xs">
            {r.failed.slice(0, 50).map((f) => (
              <li key={`${f.queue}\n${f.id}`} className="truncate">
                <Link href={paths.task(f.queue, f.id)} className="text-accent hover:underline">{f.id}</Link> ({f.queue}): {f.error.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {r.stopped && <p>It was stopped before the end; run it again for the rest.</p>}
    </div>
  );
}

/** The count, and for an archive past asynq's archive limit what it deletes and the typed name. */
function ConfirmStep({ flow, states, everything, close, onConfirm, onClose }: { flow: Extract<ActFlow, { step: 'confirm' }>; states: string[]; everything: boolean; close: ReactNode; onConfirm: () => void; onClose: () => void }) {
  const verb = ACTION_LABEL[flow.action].verb;
  const archiving = flow.action === 'archive' && flow.count > 0;
  const limit = useArchiveLimit(archiving ? flow.byQueue : null);
  const title = flow.count === 0 ? `Nothing to ${verb.toLowerCase()}` : `${verb} ${plural(flow.count, 'matching task')}?`;
  const footer = (
    <>
      {close}
      {flow.count > 0 && (
        <Button variant={flow.action === 'delete' || limit.atRisk.length > 0 ? 'danger' : 'primary'} disabled={limit.blocked} onClick={onConfirm} autoFocus>
          {verb} {formatNumber(flow.count)}
        </Button>
      )}
    </>
  );
  return (
    <Dialog open onClose={onClose} title={title} footer={footer}>
      <p>
        {flow.count === 0
          ? `No ${states.join(', ')} task matches this search.`
          : <>The {plural(flow.count, 'task')} in {states.join(', ')} that match this search will be {outcome(flow.action)}. The action reads the matches again as it goes, so tasks that change meanwhile may make the final figure differ.{flow.action === 'delete' && ' This cannot be undone.'}</>}
        {flow.count > 0 && everything && <strong> This search names no queue, type, state or text: it reaches every task of every queue.</strong>}
      </p>
      {archiving && <ArchiveLimitWarning check={limit} />}
    </Dialog>
  );
}

interface Props {
  flow: ActFlow;
  /** The states the action takes tasks from, for the confirmation text. */
  states: string[];
  /** The filter names no queue, type, state or text: the action reaches every queue. */
  everything: boolean;
  onConfirm: () => void;
  onStop: () => void;
  onClose: () => void;
}

/** Count → confirm → act → result, each step with what it is doing to Redis. */
export function ActDialog({ flow, states, everything, onConfirm, onStop, onClose }: Props) {
  if (flow.step === 'idle') return null;
  const verb = ACTION_LABEL[flow.action].verb;
  const close = <Button onClick={onClose}>{flow.step === 'done' || flow.step === 'stopped' || flow.step === 'error' ? 'Close' : 'Cancel'}</Button>;
  let title: ReactNode = `${verb} every match`;
  let body: ReactNode = null;
  let footer: ReactNode = close;
  if (flow.step === 'counting') {
    body = <Progress progress={flow.progress} label="Counting the matches:" />;
  } else if (flow.step === 'confirm') {
    return <ConfirmStep flow={flow} states={states} everything={everything} close={close} onConfirm={onConfirm} onClose={onClose} />;
  } else if (flow.step === 'acting') {
    title = `${verb} ${plural(flow.count, 'task')}…`;
    body = <Progress progress={flow.progress} label="Working:" />;
    footer = <Button onClick={onStop}>Stop</Button>;
  } else if (flow.step === 'done') {
    title = 'Done';
    body = <Done flow={flow} />;
  } else if (flow.step === 'stopped') {
    title = 'Stopped';
    body = <p>{flow.during === 'count' ? 'Counting was stopped; nothing was changed.' : `Stopped: ${formatNumber(flow.progress?.succeeded ?? 0)} tasks had already been changed. The rest were left as they were.`}</p>;
  } else {
    body = <p role="alert" className="text-danger">{flow.error instanceof Error ? flow.error.message : String(flow.error)}</p>;
  }
  return (
    <Dialog open onClose={onClose} title={title} footer={footer}>
      {body}
    </Dialog>
  );
}
