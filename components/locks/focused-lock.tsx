'use client';

import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '@/components/common/states';
import { Button } from '@/components/ui/button';
import { Fact } from '@/components/ui/fact';
import { Icon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import type { LockDto } from '@/lib/contract/diagnostics';
import { lockQuery, releasable } from '@/lib/query/locks';
import { usePollInterval } from '@/lib/query/use-poll-interval';
import { FindingCallouts } from './finding-callouts';
import { HolderState, LockHolder } from './lock-holder';
import { LockTtl } from './lock-ttl';
import { SafeText } from '@/components/ui/safe-text';

interface Props {
  qname: string;
  lockKey: string;
  onRelease: ((lock: LockDto) => void) | null;
  onClear: () => void;
}

/** The one lock a link pointed at (a task's lock badge), read by key so it shows at once. */
export function FocusedLock({ qname, lockKey, onRelease, onClear }: Props) {
  const poll = usePollInterval();
  const { data, error, isPending } = useQuery({ ...lockQuery(qname, lockKey), ...poll });
  const lock = data?.lock;
  return (
    <section aria-label="Selected lock" className="border-b border-line bg-bg-subtle px-3 py-3">
      <div className="mb-2 flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="text-[13px] font-semibold"><SafeText text={lock ? `Lock on ${lock.taskType}` : 'Lock'} /></h3>
          <code className="block font-mono text-[11px] break-all text-muted"><SafeText text={lockKey} /></code>

        </div>
        <div className="flex shrink-0 items-center gap-1">
          {lock && onRelease && releasable(lock) && (
            <Button size="sm" variant="danger" onClick={() => onRelease(lock)}>
              Release…
            </Button>
          )}
          <Button size="sm" variant="ghost" onClick={onClear} aria-label="Show every lock">
            <Icon name="x" size={12} />
          </Button>
        </div>
      </div>
      {isPending ? (
        <Skeleton className="h-12 w-full" />
      ) : !data ? (
        <ErrorState error={error} title="Could not read this lock" />
      ) : !lock ? (
        <p className="text-xs text-muted">This lock no longer exists: it expired, or it was released when its task finished.</p>
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-[13px] md:grid-cols-4">
            <Fact label="Expires in">
              <LockTtl ttlSeconds={lock.ttlSeconds} fetchedAt={data.fetchedAt} expiresAt={lock.expiresAt} />
            </Fact>
            <Fact label="Holder">
              <LockHolder lock={lock} />
            </Fact>
            <Fact label="Holder state">
              <HolderState lock={lock} />
            </Fact>
            <Fact label="Payload MD5">
              <code className="font-mono text-xs break-all text-muted">{lock.payloadMd5 || '—'}</code>
            </Fact>
          </dl>
          <FindingCallouts findings={lock.findings} className="mt-3" />
          {lock.findings.length === 0 && <p className="mt-2 text-xs text-muted">Nothing wrong with this lock: its holder still needs it.</p>}
        </>
      )}
    </section>
  );
}
