'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

/**
 * Re-renders the page's server parts every `ms` while mounted: a server-rendered banner that
 * shows a re-run's progress or a recount stays current without a script of its own, and stops
 * asking once it renders without this.
 */
export function RefreshWhile({ ms }: { ms: number }) {
  const router = useRouter();
  useEffect(() => {
    const t = setInterval(() => router.refresh(), ms);
    return () => clearInterval(t);
  }, [router, ms]);
  return null;
}
