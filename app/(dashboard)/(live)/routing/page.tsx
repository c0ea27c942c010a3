import type { Metadata } from 'next';
import { Suspense } from 'react';
import { RoutingView } from '@/components/routing/routing-view';

export const metadata: Metadata = { title: 'Routing' };

export default function RoutingPage() {
  return (
    <Suspense>
      <RoutingView />
    </Suspense>
  );
}
