'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Icon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { deleteSavedView, saveView, useSavedViews } from '@/lib/query/saved-views';
import { CopyButton } from './copy-button';

/**
 * The view's own address travels: "Copy link" copies it, "Save view" keeps it under a name in
 * this browser, and "Saved views" lists those to open or forget (from any page that has the bar).
 * Every filter, sort, tab, page and range is in the URL, so the link is the whole view.
 */
export function ViewBar({ suggestedName }: { suggestedName: string }) {
  const saved = useSavedViews();
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const here = search ? `${pathname}?${search}` : pathname;
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const menu = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (e: MouseEvent) => {
      // composedPath, not contains: a click that removes its own target (deleting a view) is inside.
      if (menu.current?.open && !e.composedPath().includes(menu.current)) menu.current.open = false;
    };
    document.addEventListener('click', close);
    return () => document.removeEventListener('click', close);
  }, []);
  return (
    <div className="flex shrink-0 items-center gap-1">
      <details ref={menu} className="relative">
        <summary className="flex h-7 cursor-pointer list-none items-center gap-1.5 rounded-md px-2 text-xs font-medium text-muted hover:bg-hover hover:text-fg">
          <Icon name="star" size={12} /> Saved views
          <span className="tabular rounded bg-hover px-1 text-[11px]">{saved.length}</span>
        </summary>
        <div className="absolute right-0 z-20 mt-1 w-80 rounded-md border border-line bg-panel p-1 shadow-lg">
          {saved.length === 0 ? (
            <p className="px-2 py-3 text-xs text-muted">No saved views. Views are kept in this browser only.</p>
          ) : (
            <ul aria-label="Saved views">
              {saved.map((v) => (
                <li key={v.name} className="flex items-center gap-1 rounded hover:bg-hover">
                  <Link
                    href={v.url}
                    className="min-w-0 flex-1 truncate px-2 py-1.5 text-[13px]"
                    title={v.url}
                    aria-current={v.url === here ? 'page' : undefined}
                    onClick={() => menu.current && (menu.current.open = false)}
                  >
                    {v.name}
                  </Link>
                  <button
                    type="button"
                    aria-label={`Delete saved view ${v.name}`}
                    onClick={() => deleteSavedView(v.name)}
                    className="grid size-6 place-items-center rounded text-subtle hover:text-danger"
                  >
                    <Icon name="x" size={11} />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </details>
      <Button size="sm" variant="ghost" onClick={() => { setName(suggestedName.slice(0, 80)); setNaming(true); }}>
        Save view
      </Button>
      <CopyButton getText={() => window.location.href} label="Copy link" />
      <Dialog
        open={naming}
        onClose={() => setNaming(false)}
        title="Save this view"
        footer={
          <>
            <Button onClick={() => setNaming(false)}>Cancel</Button>
            <Button variant="primary" type="submit" form="save-view" disabled={name.trim() === ''}>
              Save
            </Button>
          </>
        }
      >
        <form id="save-view" className="flex flex-col gap-2" onSubmit={(e) => { e.preventDefault(); saveView(name.trim(), here); setNaming(false); }}>
          <label htmlFor="save-view-name" className="text-xs">Name</label>
          <Input id="save-view-name" autoFocus value={name} onChange={(e) => setName(e.target.value)} />
          <p className="text-xs break-all text-subtle">{here}</p>
        </form>
      </Dialog>
    </div>
  );
}
