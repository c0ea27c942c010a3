'use client';

import { plural } from '@/components/tasks/task-actions';
import { Button } from '@/components/ui/button';
import { Fact } from '@/components/ui/fact';
import { Link } from '@/components/ui/link';
import type { FailureGroupDto, NotFoundGroupDto } from '@/lib/contract/triage';
import { paths, withQuery } from '@/lib/paths';
import { formatNumber } from '@/lib/utils';
import { failedCounts } from './counts';
import type { RerunTarget } from './use-rerun-flow';
import type { Verdicts } from '@/components/verdict/use-verdicts';
import { VerdictText } from '@/components/verdict/verdict-text';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';

function Waiting({ g, counted }: { g: NotFoundGroupDto; counted: boolean }) {
  if (!counted) return <span className="text-muted">counting…</span>;
  if (g.pending + g.scheduled === 0) return <span className="text-muted">none</span>;
  return (
    <span className="text-warning">
      {formatNumber(g.pending)} pending · {formatNumber(g.scheduled)} scheduled
      <span className="block max-w-64 text-xs">handed to the same servers: see the verdict above</span>
    </span>
  );
}

function Listeners({ g, known }: { g: NotFoundGroupDto; known: boolean }) {
  if (!known) return <span className="text-muted">…</span>;
  if (g.listeners.length === 0) return <span className="text-muted">none right now</span>;
  return (
    <ul className="flex flex-col gap-0.5">
      {g.listeners.map((l) => (
        <li key={l.id} className="truncate">
          <Link href={withQuery(paths.servers(), { open: l.id })} className="text-accent underline underline-offset-2">
            <SafeText text={l.host} />
          </Link>
          <span className="text-xs text-muted"> pid {l.pid} · {l.status}</span>
        </li>
      ))}
    </ul>
  );
}

interface Props {
  group: FailureGroupDto;
  /** The type's not-found groups per queue (from the not-found read); built from `group` until it answers. */
  perQueue: NotFoundGroupDto[];
  /** The fleet's verdicts: each queue's row leads with its (queue, type) verdict. */
  verdicts: Verdicts;
  /** Whether `perQueue` came from the not-found read (else the servers are not known yet). */
  known: boolean;
  /** Whether the pending and scheduled tasks have been counted (the scan's second pass). */
  counted: boolean;
  readOnly: boolean;
  onRerun: (target: RerunTarget) => void;
}

/** The (queue, type) verdict; a line saying so until it is read. */
function QueueVerdict({ verdicts, queue, type }: { verdicts: Verdicts; queue: string; type: string }) {
  const v = verdicts.get(queue, type);
  if (v) return <VerdictText v={v} className="basis-full" />;
  const what = verdicts.query.isError ? 'The routing verdict could not be read.' : 'Reading the routing verdict…';
  return <p className="basis-full text-xs text-muted">{what}</p>;
}

/** Per queue: the verdict, what failed, what is still waiting, who listens, and the re-run. Wraps on narrow screens. */
export function NotFoundQueues({ group, perQueue, verdicts, known, counted, readOnly, onRerun }: Props) {
  return (
    <ul aria-label={`Queues with ${escapeText(group.taskType ?? '')} tasks that found no handler`} className="flex flex-col gap-2">
      {perQueue.map((g) => {
        const n = g.retry + g.archived;
        return (
          <li key={g.queue} className="flex flex-wrap items-start gap-x-8 gap-y-2 rounded-md border border-line bg-bg-subtle px-3 py-2 text-[13px]">
            <QueueVerdict verdicts={verdicts} queue={g.queue} type={g.taskType} />
            {/* `contents`: the facts stay items of the row's flex, beside the button. */}
            <dl className="contents">
              <Fact label="Queue">
                <Link href={paths.queue(g.queue, { state: g.archived > 0 ? 'archived' : 'retry' })} className="break-words text-accent underline underline-offset-2">
                  <SafeText text={g.queue} />
                </Link>

              </Fact>
              <Fact label="Failed">
                <span className="tabular">{failedCounts(g.retry, g.archived)}</span>
              </Fact>
              <Fact label="Still waiting">
                <Waiting g={g} counted={counted} />
              </Fact>
              <Fact label="Listening servers">
                <Listeners g={g} known={known} />
              </Fact>
            </dl>
            {n > 0 &&
              (readOnly ? (
                <span className="ml-auto self-center text-xs text-muted">Re-running is off in read-only mode</span>
              ) : (
                <Button variant="primary" className="ml-auto self-center" onClick={() => onRerun(g)}>
                  Re-run {plural(n, 'task')}
                </Button>
              ))}
          </li>
        );
      })}
    </ul>
  );
}
