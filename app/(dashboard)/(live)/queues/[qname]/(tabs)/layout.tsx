import { Suspense, type ReactNode } from 'react';
import { QueueFrame } from '@/components/queues/queue-frame';
import { queueName, type QueueProps } from '../queue-params';

/**
 * A queue's tabbed pages (its task states and locks, its duplicates) share the header, the tabs
 * and the not-found answer, rendered here once. The task detail page sits outside this group:
 * it has a header of its own. The frame is keyed by the queue, so moving to another queue
 * starts its views afresh.
 */
export default async function QueueTabsLayout({ children, params }: QueueProps & { children: ReactNode }) {
  const qname = await queueName(params);
  return (
    <Suspense>
      <QueueFrame key={qname} qname={qname}>
        {children}
      </QueueFrame>
    </Suspense>
  );
}
