'use client';

import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { QueueHeader } from '@/components/queues/queue-header';
import { QueueTabs } from '@/components/queues/queue-tabs';
import { Panel } from '@/components/ui/panel';
import { paths } from '@/lib/paths';
import { queueFingerprint } from '@/lib/query/fingerprints';
import { useReadOnly } from '@/lib/query/health';
import { queueQuery } from '@/lib/query/queues';
import { usePollInterval } from '@/lib/query/use-poll-interval';
import { DuplicateScan } from './duplicate-scan';

/** A queue's Duplicates page: the queue's header and tabs, then its duplicate scan. */
export function DuplicatesView({ qname }: { qname: string }) {
  const router = useRouter();
  const readOnly = useReadOnly();
  const poll = usePollInterval({ fingerprint: queueFingerprint });
  const { data: stats } = useQuery({ ...queueQuery(qname), ...poll });
  return (
    <>
      <QueueHeader qname={qname} stats={stats} readOnly={readOnly} />
      <Panel flush>
        <QueueTabs
          qname={qname}
          stats={stats}
          active="duplicates"
          stateHref={(state) => paths.queue(qname, { state })}
          locksHref={paths.queueLocks(qname)}
          onSelect={(t) => {
            if (t === 'duplicates') return;
            router.push(t === 'locks' ? paths.queueLocks(qname) : paths.queue(qname, { state: t }));
          }}
        />
        <DuplicateScan qname={qname} readOnly={readOnly} />
      </Panel>
    </>
  );
}
