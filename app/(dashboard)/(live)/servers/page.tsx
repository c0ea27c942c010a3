import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ServersView } from '@/components/servers/servers-view';

export const metadata: Metadata = { title: 'Servers' };

export default function ServersPage() {
  return (
    <Suspense>
      <ServersView />
    </Suspense>
  );
}
