'use client';

import { Badge } from '@/components/ui/badge';
import { useLiveShell } from '@/lib/query/live-snapshot';
import type { LiveSeed } from '@/lib/query/live-view';
import { cn } from '@/lib/utils';
import { PollStatus } from './poll-status';

/** Redis version and reachability, the poll interval and read-only mode, at a glance. */
export function SidebarStatus({ seed }: { seed: LiveSeed }) {
  const { snapshot } = useLiveShell(seed);
  const { health } = snapshot;
  const failure = snapshot.error?.message ?? null;
  const failing = failure !== null;
  return (
    <div className="mt-auto hidden flex-col gap-1.5 border-t border-line px-4 py-3 text-[11px] text-muted md:flex">
      <div className="flex items-center gap-1.5" title={failure ?? undefined}>
        <span className={cn('size-1.5 rounded-full', failing ? 'bg-danger' : 'bg-success')} />
        {failing ? (/\bstalled\b/.test(failure) ? 'Redis stalled' : 'Redis unreachable') : `Redis ${health?.redisVersion ?? ''}`}
        {health?.readOnly && (
          <Badge tone="amber" className="ml-auto">
            read-only
          </Badge>
        )}
      </div>
      <div>
        <PollStatus />
        {health && <span className="text-subtle"> · v{health.version}</span>}
      </div>
    </div>
  );
}
