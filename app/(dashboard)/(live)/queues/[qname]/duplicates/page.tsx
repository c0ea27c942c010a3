import type { Metadata } from 'next';
import { Suspense } from 'react';
import { DuplicatesView } from '@/components/duplicates/duplicates-view';
import { decodeSegment } from '@/lib/paths';

interface Props {
  /** Still percent-encoded: see decodeSegment. */
  params: Promise<{ qname: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Duplicates · ${decodeSegment((await params).qname)}` };
}

export default async function DuplicatesPage({ params }: Props) {
  const qname = decodeSegment((await params).qname);
  return (
    <Suspense>
      <DuplicatesView key={qname} qname={qname} />
    </Suspense>
  );
}
