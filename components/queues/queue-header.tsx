'use client';

import { Link } from '@/components/ui/link';
import { PageHeader } from '@/components/common/page-header';
import { RelativeTime } from '@/components/common/relative-time';
import { Badge } from '@/components/ui/badge';
import { buttonClass } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import type { QueueStatsDto } from '@/lib/contract/queues';
import { paths } from '@/lib/paths';
import { errorRate, formatBytes, formatDuration, formatNumber, formatPercent } from '@/lib/utils';
import { DeleteQueueButton } from './delete-queue-dialog';
import { PauseToggle } from './pause-toggle';
import { SafeText } from '@/components/ui/safe-text';

/** The queue's name, health figures and queue-level actions. */
export function QueueHeader({ qname, stats, readOnly }: { qname: string; stats: QueueStatsDto | undefined; readOnly: boolean }) {
  const rate = stats ? errorRate(stats.processed, stats.failed) : null;
  return (
    <PageHeader
      title={
        <span className="flex items-center gap-2">
          <Link href={paths.overview()} className="font-normal text-muted hover:text-fg">
            Queues /
          </Link>
          <span data-testid="queue-name" className="truncate">
            <SafeText text={qname} />

          </span>
          {stats?.paused && <Badge tone="amber">paused</Badge>}
        </span>
      }
      meta={
        stats && (
          <>
            <span>{formatNumber(stats.size)} tasks</span>
            <span>·</span>
            <span>
              {formatNumber(stats.processed)} processed, {formatNumber(stats.failed)} failed today
              {rate !== null && ` (${formatPercent(rate)})`}
            </span>
            <span>·</span>
            <span>oldest pending {stats.pending > 0 ? formatDuration(stats.latencySeconds) : '—'}</span>
            {stats.memoryUsageBytes !== null && (
              <>
                <span>·</span>
                <span>{formatBytes(stats.memoryUsageBytes)}</span>
              </>
            )}
            {stats.paused && stats.pausedSince && (
              <>
                <span>·</span>
                <span>
                  paused <RelativeTime iso={stats.pausedSince} />
                </span>
              </>
            )}
          </>
        )
      }
      actions={
        stats &&
        !readOnly && (
          <>
            <Link href={paths.enqueue({ queue: qname })} className={buttonClass()}>
              <Icon name="plus" size={13} /> Enqueue
            </Link>
            <PauseToggle qname={qname} paused={stats.paused} />
            <DeleteQueueButton qname={qname} size={stats.size} />
          </>
        )
      }
    />
  );
}
