import { Link } from '@/components/ui/link';
import { RelativeTimeCell } from '@/components/common/relative-time';
import { HeadRow, Table, TBody, TD, TR } from '@/components/ui/table';
import type { ServerListDto } from '@/lib/contract/servers';
import { paths } from '@/lib/paths';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';
import { formatBytes, preview } from '@/lib/utils';

type Worker = ServerListDto['servers'][number]['workers'][number];

/** The payload as a task list shows it: text, or its size when binary or empty. */
function WorkerPayload({ w }: { w: Worker }) {
  if (w.payloadSize === 0) return <span className="text-subtle">empty</span>;
  if (w.payloadEncoding === 'base64') return <span className="text-subtle">binary · {formatBytes(w.payloadSize)}</span>;
  return <span title={w.payloadTruncated ? `${formatBytes(w.payloadSize)}, preview cut` : undefined}><SafeText text={preview(w.payload, 70)} /></span>;
}

/** The tasks one server is processing right now. */
export function WorkersTable({ workers }: { workers: Worker[] }) {
  if (workers.length === 0) return <p className="px-1 pt-2 text-xs text-muted">No task in progress.</p>;
  return (
    <Table className="mt-2 border border-line bg-panel" aria-label="Workers">
      <HeadRow headings={['Task', 'Type', 'Payload', 'Queue', 'Started', 'Deadline']} />
      <TBody>
        {workers.map((w) => (
          <TR key={w.taskId}>
            <TD className="max-w-56 truncate font-mono text-xs">
              <Link href={paths.task(w.queue, w.taskId)} className="hover:underline" title={escapeText(w.taskId)}>
                <SafeText text={w.taskId} />
              </Link>
            </TD>
            <TD><SafeText text={w.taskType} /></TD>
            <TD className="max-w-72 truncate font-mono text-xs"><WorkerPayload w={w} /></TD>
            <TD>
              <Link href={paths.queue(w.queue, { state: 'active' })} className="hover:underline">
                <SafeText text={w.queue} />

              </Link>
            </TD>
            <RelativeTimeCell iso={w.startedAt} />
            <RelativeTimeCell iso={w.deadline} />
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
