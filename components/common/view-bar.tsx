'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icons';
import { CopyButton } from './copy-button';

/**
 * The list and the dialog load when first opened: the bar sits on the overview, whose first
 * load has a JavaScript budget (tests/e2e/budget.spec.ts).
 */
const SavedViewsList = lazy(() => import('./saved-views-list'));
const SaveViewDialog = lazy(() => import('./save-view-dialog'));

/**
 * The view's own address travels: "Copy link" copies it, "Save view" keeps it under a name in
 * this browser, and "Saved views" lists those to open or delete (from any page with the bar).
 * Every filter, sort, tab, page and range is in the URL, so the link is the whole view.
 */
export default function ViewBar({ suggestedName }: { suggestedName: string }) {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const here = search ? `${pathname}?${search}` : pathname;
  const [naming, setNaming] = useState(false);
  const [listed, setListed] = useState(false);
  const menu = useRef<HTMLDetailsElement>(null);
  const close = () => menu.current && (menu.current.open = false);
  useEffect(() => {
    const away = (e: MouseEvent) => {
      // composedPath, not contains: a click that removes its own target (deleting a view) is inside.
      if (menu.current?.open && !e.composedPath().includes(menu.current)) menu.current.open = false;
    };
    document.addEventListener('click', away);
    return () => document.removeEventListener('click', away);
  }, []);
  return (
    <div className="flex shrink-0 items-center gap-1">
      <details ref={menu} className="relative" onToggle={(e) => e.currentTarget.open && setListed(true)}>
        <summary className="flex h-7 cursor-pointer list-none items-center gap-1.5 rounded-md px-2 text-xs font-medium text-muted hover:bg-hover hover:text-fg">
          <Icon name="star" size={12} /> Saved views
        </summary>
        <div className="absolute right-0 z-20 mt-1 w-80 rounded-md border border-line bg-panel p-1 shadow-lg">
          {listed && (
            <Suspense fallback={<p className="px-2 py-3 text-xs text-muted">Loading…</p>}>
              <SavedViewsList here={here} onOpen={close} />
            </Suspense>
          )}
        </div>
      </details>
      <Button size="sm" variant="ghost" onClick={() => setNaming(true)}>
        Save view
      </Button>
      <CopyButton getText={() => window.location.href} label="Copy link" />
      {naming && (
        <Suspense>
          <SaveViewDialog url={here} suggestedName={suggestedName} onClose={() => setNaming(false)} />
        </Suspense>
      )}
    </div>
  );
}
