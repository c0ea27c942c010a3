import type { Metadata } from 'next';
import { Suspense } from 'react';
import { RedisView } from '@/components/redis/redis-view';

export const metadata: Metadata = { title: 'Redis' };

export default function RedisPage() {
  return (
    <Suspense>
      <RedisView />
    </Suspense>
  );
}
