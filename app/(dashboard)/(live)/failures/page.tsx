import type { Metadata } from 'next';
import { Suspense } from 'react';
import { FailuresView } from '@/components/failures/failures-view';

export const metadata: Metadata = { title: 'Failures' };

export default function FailuresPage() {
  return (
    <Suspense>
      <FailuresView />
    </Suspense>
  );
}
