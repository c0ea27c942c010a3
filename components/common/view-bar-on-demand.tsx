'use client';

import { lazy, Suspense, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';

const ViewBar = lazy(() => import('./view-bar'));

/**
 * The view bar (saved views, Save view, Copy link) behind one button, its code loaded on the
 * click: for the overview, whose first load has a JavaScript budget of 150 KB gzipped
 * (tests/e2e/budget.spec.ts) that the bar's code would overrun by about a kilobyte.
 */
export function ViewBarOnDemand({ suggestedName }: { suggestedName: string }) {
  const [shown, setShown] = useState(false);
  if (shown) {
    return (
      <Suspense fallback={<span className="px-2 text-xs text-muted">Loading…</span>}>
        <ViewBar suggestedName={suggestedName} />
      </Suspense>
    );
  }
  return (
    <Button size="sm" variant="ghost" onClick={() => setShown(true)}>
      <Icon name="star" size={12} /> Views
    </Button>
  );
}
