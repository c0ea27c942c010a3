import type { Metadata } from 'next';
import { Suspense } from 'react';
import { SchedulersView } from '@/components/schedulers/schedulers-view';

export const metadata: Metadata = { title: 'Schedulers' };

export default function SchedulersPage() {
  return (
    <Suspense>
      <SchedulersView />
    </Suspense>
  );
}
