'use client';

import { RelativeTimeCell } from '@/components/common/relative-time';
import { Badge } from '@/components/ui/badge';
import { HeadRow, Table, TBody, TD } from '@/components/ui/table';
import type { SchedulerListDto } from '@/lib/contract/servers';
import { cn, formatBytes, preview } from '@/lib/utils';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';

type Entry = SchedulerListDto['entries'][number];

/** Periodic tasks: spec, what they enqueue and when. Picking one shows its enqueue history. */
export function SchedulerEntriesTable({ entries, selected, onSelect }: { entries: Entry[]; selected: string | undefined; onSelect: (id: string) => void }) {
  return (
    <Table aria-label="Scheduler entries">
      <HeadRow headings={['Spec', 'Task type', 'Payload', 'Options', 'Next', 'Previous', 'Entry ID']} />
      <TBody>
        {entries.map((e) => (
          <tr
            key={e.id}
            onClick={() => onSelect(e.id)}
            aria-selected={selected === e.id}
            className={cn('cursor-pointer border-b border-line last:border-b-0', selected === e.id ? 'bg-selected' : 'hover:bg-hover')}
          >
            <TD className="font-mono text-xs whitespace-nowrap">{e.spec}</TD>
            <TD className="font-medium">
              <button type="button" className="hover:underline" onClick={() => onSelect(e.id)}>
                <SafeText text={e.taskType} />
              </button>
            </TD>
            <TD className="max-w-64 truncate font-mono text-xs text-muted">
              {e.payloadEncoding === 'base64' ? `binary · ${formatBytes(Math.floor((e.payload.length * 3) / 4))}` : e.payload ? <SafeText text={preview(e.payload, 70)} /> : <span className="italic">empty</span>}
            </TD>
            <TD>
              <div className="flex flex-wrap gap-1">
                {e.options.map((o) => (
                  <Badge key={o} className="font-mono">
                    <SafeText text={o} />
                  </Badge>

                ))}
              </div>
            </TD>
            <RelativeTimeCell iso={e.nextEnqueueAt} muted={false} />
            <RelativeTimeCell iso={e.prevEnqueueAt} />
            <TD className="max-w-40 truncate font-mono text-xs text-muted" title={escapeText(e.id)}>
              <SafeText text={e.id} />
            </TD>
          </tr>
        ))}
      </TBody>
    </Table>
  );
}
