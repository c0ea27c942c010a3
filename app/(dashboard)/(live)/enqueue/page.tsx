import type { Metadata } from 'next';
import { Suspense } from 'react';
import { EnqueueView } from '@/components/enqueue/enqueue-view';

export const metadata: Metadata = { title: 'Enqueue' };

export default function EnqueuePage() {
  return (
    <Suspense>
      <EnqueueView />
    </Suspense>
  );
}
