import { RelativeTime } from '@/components/common/relative-time';
import { plural } from '@/components/tasks/task-actions';
import type { DuplicatesReportDto } from '@/lib/contract/diagnostics';
import { formatNumber } from '@/lib/utils';

/** What a finished scan found, in counts. */
export function ScanSummary({ report }: { report: DuplicatesReportDto }) {
  const listed = report.groups.length;
  const found = report.exactGroups + report.nearGroups;
  return (
    <div data-testid="scan-summary" className="flex flex-col gap-1 px-3 py-2.5 text-xs text-muted">
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className="tabular text-[13px] text-fg">
          <strong className="font-semibold">{plural(report.exactGroups, 'exact group')}</strong> ·{' '}
          <strong className="font-semibold">{plural(report.nearGroups, 'near group')}</strong> · {plural(report.surplusTasks, 'surplus task')}
        </span>
        <span>
          among {formatNumber(report.scanned)} {report.states.join(', ')} tasks
        </span>
        {report.finishedAt && (
          <span>
            · scanned <RelativeTime iso={report.finishedAt} />
          </span>
        )}
      </p>
      <p>
        Exact: same type and payload bytes, what asynq&apos;s Unique option would have refused. Near: JSON payloads equal but for fields that
        change on every enqueue. Surplus: the exact duplicates beyond the first of each group.
      </p>
      {report.skipped > 0 && <p className="text-warning">{plural(report.skipped, 'task')} could not be read (gone mid-scan or corrupt) and were left out.</p>}
      {report.nearCapped && <p className="text-warning">Too many distinct payload shapes to track them all: some near groups may be missing.</p>}
      {found > listed && <p>Showing the {formatNumber(listed)} largest of {formatNumber(found)} groups.</p>}
    </div>
  );
}
