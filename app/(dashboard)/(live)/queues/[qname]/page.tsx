import type { Metadata } from 'next';
import { Suspense } from 'react';
import { QueueView } from '@/components/queues/queue-view';
import { decodeSegment } from '@/lib/paths';

interface Props {
  /** Still percent-encoded (`low%20priority`): see decodeSegment. */
  params: Promise<{ qname: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: decodeSegment((await params).qname) };
}

export default async function QueuePage({ params }: Props) {
  const qname = decodeSegment((await params).qname);
  return (
    <Suspense>
      <QueueView key={qname} qname={qname} />
    </Suspense>
  );
}
