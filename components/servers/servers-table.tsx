'use client';

import { Fragment } from 'react';
import { RelativeTimeCell } from '@/components/common/relative-time';
import { Badge } from '@/components/ui/badge';
import { Icon } from '@/components/ui/icons';
import { HeadRow, Table, TBody, TD } from '@/components/ui/table';
import type { ServerListDto } from '@/lib/contract/servers';
import { cn } from '@/lib/utils';
import { WorkersTable } from './workers-table';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';

type Server = ServerListDto['servers'][number];

function Utilisation({ active, concurrency }: { active: number; concurrency: number }) {
  const pct = concurrency > 0 ? Math.min(100, (active / concurrency) * 100) : 0;
  return (
    <div className="flex items-center gap-2">
      <div className="h-1.5 w-20 overflow-hidden rounded-full bg-hover">
        <div className="h-full rounded-full bg-accent" style={{ width: `${pct}%` }} />
      </div>
      <span className="tabular text-xs text-muted">
        {active} / {concurrency}
      </span>
    </div>
  );
}

function Queues({ s }: { s: Server }) {
  const entries = Object.entries(s.queues).sort(([, a], [, b]) => b - a);
  return (
    <div className="flex flex-wrap gap-1">
      {entries.map(([q, p]) => (
        <Badge key={q} title={`priority ${p}`}>
          <SafeText text={q} />
          <span className="text-subtle">{p}</span>
        </Badge>
      ))}
      {s.strictPriority && <Badge tone="violet">strict</Badge>}
    </div>
  );
}

/** Servers with their utilisation; a row opens to show the tasks its workers are running. */
export function ServersTable({ servers, open, onToggle }: { servers: Server[]; open: string | undefined; onToggle: (id: string) => void }) {
  return (
    <Table aria-label="Servers">
      <HeadRow headings={[{ className: 'w-6' }, 'Host', 'PID', 'Status', 'Workers', 'Queues (priority)', 'Started', 'Server ID']} />
      <TBody>
        {servers.map((s) => {
          const expanded = open === s.id;
          return (
            <Fragment key={s.id}>
              <tr className={cn('cursor-pointer border-b border-line hover:bg-hover', expanded && 'bg-bg-subtle')} onClick={() => onToggle(s.id)}>
                <TD className="pr-0 text-subtle">
                  {/* The row toggles on click; this button is the same toggle for keyboards and screen readers (a row cannot carry aria-expanded). */}
                  <button type="button" aria-expanded={expanded} aria-label={`${expanded ? 'Hide' : 'Show'} the workers of ${s.host} pid ${s.pid}`} className="rounded p-0.5 hover:text-fg" onClick={(ev) => { ev.stopPropagation(); onToggle(s.id); }}>
                    <Icon name={expanded ? 'chevronDown' : 'chevronRight'} size={12} />
                  </button>
                </TD>
                <TD className="font-medium"><SafeText text={s.host} /></TD>
                <TD className="tabular">{s.pid}</TD>
                <TD>
                  <Badge tone={s.status === 'active' ? 'green' : s.status === 'stopped' ? 'amber' : 'neutral'}>{s.status}</Badge>
                </TD>
                <TD>
                  <Utilisation active={s.workers.length} concurrency={s.concurrency} />
                </TD>
                <TD>
                  <Queues s={s} />
                </TD>
                <RelativeTimeCell iso={s.startedAt} />
                <TD className="max-w-40 truncate font-mono text-xs text-muted" title={escapeText(s.id)}>
                  <SafeText text={s.id} />
                </TD>
              </tr>
              {expanded && (
                <tr className="border-b border-line bg-bg-subtle">
                  <td colSpan={8} className="px-3 pb-3">
                    <WorkersTable workers={s.workers} />
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </TBody>
    </Table>
  );
}
