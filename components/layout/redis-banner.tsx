'use client';

import { Icon } from '@/components/ui/icons';
import { useLiveShell } from '@/lib/query/live-snapshot';
import type { LiveSeed } from '@/lib/query/live-view';
import { DOWN_PROBE_MS } from '@/lib/query/poll-policy';
import { SafeText } from '@/components/ui/safe-text';
import { formatDuration } from '@/lib/utils';

/**
 * Shown while the server cannot read Redis (the API's 503 `redis_unavailable`, or any other
 * failure, in its own words). The API's message is the headline: it names the address and
 * says which failure it is ("is unreachable: …" for a closed port or a lost connection, "is
 * stalled: not answering within N ms" for a Redis that accepts connections but does not
 * answer). It comes and goes with the live snapshot (the poller probes every DOWN_PROBE_MS
 * while Redis fails), with no reload.
 */
export function RedisBanner({ seed }: { seed: LiveSeed }) {
  const { error } = useLiveShell(seed).snapshot;
  if (!error) return null;
  const { code, message } = error;
  const stalled = code === 'redis_unavailable' && / is stalled:/.test(message);
  return (
    <div
      role="alert"
      data-testid="redis-banner"
      data-reason={code === 'redis_unavailable' ? (stalled ? 'stalled' : 'unreachable') : code}
      className="flex items-start gap-2 border-b border-danger/30 bg-danger-soft px-4 py-2 text-[13px] text-danger md:px-6"
    >
      <Icon name="alert" size={15} className="mt-0.5 shrink-0" />
      <div className="min-w-0">
        {code === 'redis_unavailable' ? (
          <strong className="break-words font-semibold"><SafeText text={message} /></strong>
        ) : (
          <>
            <strong className="font-semibold">Redis cannot be read.</strong> <span className="break-words opacity-90"><SafeText text={message} /></span>

          </>
        )}
        <span className="opacity-75">
          {' '}
          Live figures are paused; {stalled ? 'waiting for Redis to answer' : 'retrying'} every {formatDuration(DOWN_PROBE_MS / 1000)}.
        </span>
      </div>
    </div>
  );
}
