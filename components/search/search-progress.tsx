'use client';

import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import { cn, formatNumber } from '@/lib/utils';

interface Props {
  scanned: number;
  total: number;
  matches: number;
  searching: boolean;
  stopped: boolean;
  complete: boolean;
  onStop: () => void;
  onResume: () => void;
  onRestart: () => void;
}

/**
 * How far the search got: tasks read of the tasks there were when it started. `scanned` can
 * pass `total` when tasks arrive meanwhile, so both the bar and the figure are clamped.
 */
export function SearchProgress(p: Props) {
  const shown = Math.min(p.scanned, p.total);
  const ratio = p.complete ? 1 : p.total > 0 ? Math.min(1, p.scanned / p.total) : 0;
  const status = p.complete
    ? `Searched all ${formatNumber(p.total)} tasks`
    : p.searching
      ? `Searching… ${formatNumber(shown)} of ${formatNumber(p.total)} tasks read`
      : p.stopped
        ? `Stopped after ${formatNumber(shown)} of ${formatNumber(p.total)} tasks`
        : `Paused after ${formatNumber(shown)} of ${formatNumber(p.total)} tasks`;
  return (
    <div role="status" aria-label="Search progress" className="flex flex-col gap-1.5 border-b border-line px-3 py-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
        <span className="font-medium text-fg">
          {formatNumber(p.matches)} {p.matches === 1 ? 'match' : 'matches'}
        </span>
        <span className="text-muted" data-testid="search-status">
          {status} ({Math.round(ratio * 100)}%)
        </span>
        <div className="ml-auto flex gap-1.5">
          {p.searching && (
            <Button size="sm" onClick={p.onStop}>
              <Icon name="stop" size={12} /> Stop
            </Button>
          )}
          {p.stopped && !p.searching && !p.complete && (
            <Button size="sm" onClick={p.onResume}>
              <Icon name="play" size={12} /> Continue
            </Button>
          )}
          <Button size="sm" variant="ghost" onClick={p.onRestart} disabled={p.searching} title="Search again from the first task">
            Refresh
          </Button>
        </div>
      </div>
      <div className="h-1 overflow-hidden rounded-full bg-hover" aria-hidden>
        <div
          className={cn('h-full rounded-full transition-[width] duration-300', p.complete ? 'bg-success' : p.stopped ? 'bg-warning' : 'bg-accent')}
          style={{ width: `${ratio * 100}%` }}
        />
      </div>
    </div>
  );
}
