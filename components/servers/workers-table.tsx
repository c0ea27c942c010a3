import { Link } from '@/components/ui/link';
import { RelativeTime } from '@/components/common/relative-time';
import type { ServerListDto } from '@/lib/contract/servers';
import { paths } from '@/lib/paths';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText } from '@/lib/display-text';

type Worker = ServerListDto['servers'][number]['workers'][number];

/** The tasks one server is processing right now. */
export function WorkersTable({ workers }: { workers: Worker[] }) {
  if (workers.length === 0) return <p className="px-1 pt-2 text-xs text-muted">No task in progress.</p>;
  return (
    <table className="mt-2 w-full overflow-hidden rounded-md border border-line bg-panel text-[13px]" aria-label="Workers">
      <thead>
        <tr className="text-left text-[11px] tracking-wide text-muted uppercase">
          <th className="px-3 py-1.5 font-medium">Task</th>
          <th className="px-3 py-1.5 font-medium">Type</th>
          <th className="px-3 py-1.5 font-medium">Queue</th>
          <th className="px-3 py-1.5 font-medium">Started</th>
          <th className="px-3 py-1.5 font-medium">Deadline</th>
        </tr>
      </thead>
      <tbody>
        {workers.map((w) => (
          <tr key={w.taskId} className="border-t border-line">
            <td className="max-w-56 truncate px-3 py-1.5 font-mono text-xs">
              <Link href={paths.task(w.queue, w.taskId)} className="hover:underline" title={escapeText(w.taskId)}>
                <SafeText text={w.taskId} />
              </Link>
            </td>
            <td className="px-3 py-1.5"><SafeText text={w.taskType} /></td>
            <td className="px-3 py-1.5">
              <Link href={paths.queue(w.queue, { state: 'active' })} className="hover:underline">
                <SafeText text={w.queue} />

              </Link>
            </td>
            <td className="px-3 py-1.5 text-muted">
              <RelativeTime iso={w.startedAt} />
            </td>
            <td className="px-3 py-1.5 text-muted">
              <RelativeTime iso={w.deadline} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
