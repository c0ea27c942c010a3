'use client';

import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import { cn, formatNumber } from '@/lib/utils';
import type { SearchRun } from './use-search-run';

/**
 * How far the search got: tasks read of the tasks there were when it started. `scanned` can
 * pass `total` when tasks arrive meanwhile, so both the bar and the figure are clamped.
 */
export function SearchProgress({ run }: { run: SearchRun }) {
  const matches = run.tasks.length;
  const shown = Math.min(run.scanned, run.total);
  const ratio = run.complete ? 1 : run.total > 0 ? Math.min(1, run.scanned / run.total) : 0;
  const status = run.complete
    ? `Searched all ${formatNumber(run.total)} tasks`
    : run.searching
      ? `Searching… ${formatNumber(shown)} of ${formatNumber(run.total)} tasks read`
      : run.stopped
        ? `Stopped after ${formatNumber(shown)} of ${formatNumber(run.total)} tasks`
        : `Paused after ${formatNumber(shown)} of ${formatNumber(run.total)} tasks`;
  return (
    <div role="status" aria-label="Search progress" className="flex flex-col gap-1.5 border-b border-line px-3 py-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
        <span className="font-medium text-fg">
          {formatNumber(matches)} {matches === 1 ? 'match' : 'matches'}
        </span>
        <span className="text-muted" data-testid="search-status">
          {status} ({Math.round(ratio * 100)}%)
        </span>
        <div className="ml-auto flex gap-1.5">
          {run.searching && (
            <Button size="sm" onClick={run.stop}>
              <Icon name="stop" size={12} /> Stop
            </Button>
          )}
          {run.stopped && !run.searching && !run.complete && (
            <Button size="sm" onClick={run.resume}>
              <Icon name="play" size={12} /> Continue
            </Button>
          )}
          <Button size="sm" variant="ghost" onClick={run.restart} disabled={run.searching} title="Search again from the first task">
            Refresh
          </Button>
        </div>
      </div>
      <div className="h-1 overflow-hidden rounded-full bg-hover" aria-hidden>
        <div
          className={cn('h-full rounded-full transition-[width] duration-300', run.complete ? 'bg-success' : run.stopped ? 'bg-warning' : 'bg-accent')}
          style={{ width: `${ratio * 100}%` }}
        />
      </div>
    </div>
  );
}
