import type { Metadata } from 'next';
import { Suspense } from 'react';
import { UniquenessView } from '@/components/locks/uniqueness-view';

export const metadata: Metadata = { title: 'Uniqueness' };

export default function UniquenessPage() {
  return (
    <Suspense>
      <UniquenessView />
    </Suspense>
  );
}
