'use client';

import { useEffect } from 'react';
import { plural } from '@/components/tasks/task-actions';
import type { FailureGroupDto, FailuresDto, HandlerNotFoundDto, NotFoundGroupDto } from '@/lib/contract/triage';
import { useVerdicts } from '@/components/verdict/use-verdicts';
import { NotFoundCard } from './not-found-card';
import { notFoundAnchor } from './not-found-anchor';
import type { RerunTarget } from './use-rerun-flow';

type NotFoundGroup = FailureGroupDto & { taskType: string };

const isNotFound = (g: FailureGroupDto): g is NotFoundGroup => g.kind === 'handler_not_found' && g.taskType !== null;

/** Until the not-found read answers: the group's own per-queue counts, without servers or waiting tasks. */
function fromGroup(g: NotFoundGroup): NotFoundGroupDto[] {
  return g.queues.map((q) => ({
    queue: q.queue, taskType: g.taskType, archived: q.archived, retry: q.retry, pending: 0, scheduled: 0, retriesSpent: 0,
    firstFailedAt: null, lastFailedAt: null, sampleTaskIds: [], servers: [], listeners: [], message: g.signature, explanation: '',
  }));
}

interface Props {
  failures: FailuresDto;
  notFound: HandlerNotFoundDto | undefined;
  /** The queue filter (null: every queue): the verdicts read are of the same queues. */
  queue: string | null;
  /** A task type to scroll to (a task page's link). */
  focus: string | undefined;
  readOnly: boolean;
  onRerun: (target: RerunTarget) => void;
}

/** The not-found groups, first and open: the failures that one deploy and one re-run fix. */
export function NotFoundSection({ failures, notFound, queue, focus, readOnly, onRerun }: Props) {
  const groups = failures.groups.filter(isNotFound);
  const verdicts = useVerdicts(queue);
  const focused = focus !== undefined && groups.some((g) => g.taskType === focus);
  useEffect(() => {
    if (focused && focus) document.getElementById(notFoundAnchor(focus))?.scrollIntoView({ block: 'start' });
  }, [focused, focus]);
  return (
    <>
      {focus !== undefined && !focused && failures.complete && (
        <p role="status" className="rounded-lg border border-line bg-panel px-3 py-2 text-[13px] text-muted">
          No task of type <strong className="font-mono break-all text-fg">{focus}</strong> is failing with &ldquo;handler not found&rdquo; here any
          more: its tasks were re-run, deleted, or have not been scanned.
        </p>
      )}
      {groups.length > 0 && (
        <section aria-label="Task types without a handler" className="flex flex-col gap-3">
          <div>
            <h2 className="text-sm font-semibold">No handler for {plural(groups.length, 'task type')}</h2>
            <p className="mt-0.5 text-xs text-muted">
              A worker took these tasks and had no handler for their type: asynq fails each one, retries it, and archives it once its retries run out.
              Each queue says what the fleet does with the type now.
            </p>
          </div>
          {groups.map((g) => {
            const perQueue = notFound?.groups.filter((n) => n.taskType === g.taskType) ?? [];
            const known = perQueue.length > 0;
            return (
              <NotFoundCard
                key={g.signature}
                group={g}
                perQueue={known ? perQueue : fromGroup(g)}
                verdicts={verdicts}
                known={known}
                counted={known && notFound?.phase === 'done'}
                focused={g.taskType === focus}
                readOnly={readOnly}
                onRerun={onRerun}
              />
            );
          })}
        </section>
      )}
    </>
  );
}
