'use client';

import { plural } from '@/components/tasks/task-actions';
import { Button } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import type { FailureGroupDto, NotFoundGroupDto } from '@/lib/contract/triage';
import { paths, withQuery } from '@/lib/paths';
import { formatNumber } from '@/lib/utils';
import type { RerunTarget } from './use-rerun-flow';

function Waiting({ g, counted }: { g: NotFoundGroupDto; counted: boolean }) {
  if (!counted) return <span className="text-muted">counting…</span>;
  if (g.pending + g.scheduled === 0) return <span className="text-muted">none</span>;
  return (
    <span className="text-warning">
      {formatNumber(g.pending)} pending · {formatNumber(g.scheduled)} scheduled
      <span className="block text-xs">will fail the same way unless the handler is deployed first</span>
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
          <Link href={withQuery(paths.servers(), { open: l.id })} className="text-accent hover:underline">
            {l.host}
          </Link>
          <span className="text-xs text-muted"> pid {l.pid} · {l.status}</span>
        </li>
      ))}
    </ul>
  );
}

interface Props {
  group: FailureGroupDto;
  /** The type's not-found groups per queue (from the not-found read); empty until it answers. */
  perQueue: NotFoundGroupDto[];
  /** Whether `perQueue` came from the not-found read (else it is built from `group`, without servers). */
  known: boolean;
  /** Whether the pending and scheduled tasks have been counted (the scan's second pass). */
  counted: boolean;
  readOnly: boolean;
  onRerun: (target: RerunTarget) => void;
}

/** Per queue: what failed, what is still waiting, who listens, and the re-run. */
export function NotFoundQueues({ group, perQueue, known, counted, readOnly, onRerun }: Props) {
  return (
    <Table aria-label={`Queues with ${group.taskType ?? ''} tasks that found no handler`}>
      <THead>
        <TR>
          <TH>Queue</TH>
          <TH>Failed</TH>
          <TH>Still waiting</TH>
          <TH>Listening servers</TH>
          <TH className="text-right">{readOnly ? '' : 'Recover'}</TH>
        </TR>
      </THead>
      <TBody>
        {perQueue.map((g) => {
          const n = g.retry + g.archived;
          return (
            <TR key={g.queue} className="align-top">
              <TD className="py-2 align-top">
                <Link href={paths.queue(g.queue, { state: 'archived' })} className="break-words text-accent hover:underline">
                  {g.queue}
                </Link>
              </TD>
              <TD className="tabular py-2 align-top whitespace-nowrap">
                {formatNumber(g.archived)} archived · {formatNumber(g.retry)} retry
              </TD>
              <TD className="tabular py-2 align-top">
                <Waiting g={g} counted={counted} />
              </TD>
              <TD className="py-2 align-top">
                <Listeners g={g} known={known} />
              </TD>
              <TD className="py-2 text-right align-top">
                {!readOnly && n > 0 && (
                  <Button size="sm" variant="primary" onClick={() => onRerun(g)}>
                    Re-run {plural(n, 'task')}
                  </Button>
                )}
              </TD>
            </TR>
          );
        })}
      </TBody>
    </Table>
  );
}
