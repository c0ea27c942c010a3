import type { ReactNode } from 'react';
import { Providers } from '@/app/providers';

/**
 * The pages whose data is polled through TanStack Query (queue, task, servers, schedulers,
 * Redis, settings). The overview is server-rendered and stays out of this group, which keeps
 * TanStack Query (12 KB gzipped) off its budget.
 */
export default function LiveLayout({ children }: { children: ReactNode }) {
  return <Providers>{children}</Providers>;
}
