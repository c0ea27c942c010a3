'use client';

import { useEffect, useRef, useState } from 'react';
import { CopyButton } from '@/components/common/copy-button';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Icon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { paths, type QueryPairs } from '@/lib/paths';
import { deleteSavedSearch, saveSearch, useSavedSearches } from '@/lib/query/saved-searches';
import { filterKey } from '@/lib/query/search';
import { chipText } from './filter-kinds';

const describe = (filter: QueryPairs) =>
  filter.map((p) => { const c = chipText(p); return `${c.field} ${c.op} ${c.value}`; }).join(', ');

/** Saved searches (this browser's localStorage), saving this one, and copying its link. */
export function SavedSearches({ filter }: { filter: QueryPairs }) {
  const saved = useSavedSearches();
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const query = filterKey(filter);
  const menu = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (e: MouseEvent) => {
      if (menu.current?.open && !menu.current.contains(e.target as Node)) menu.current.open = false;
    };
    document.addEventListener('click', close);
    return () => document.removeEventListener('click', close);
  }, []);
  return (
    <>
      <details ref={menu} className="group relative">
        <summary className="flex h-8 cursor-pointer list-none items-center gap-1.5 rounded-md border border-line-strong bg-panel px-3 text-[13px] font-medium hover:bg-hover">
          <Icon name="star" size={13} /> Saved searches
          <span className="tabular rounded bg-hover px-1 text-[11px] text-muted">{saved.length}</span>
        </summary>
        <div className="absolute right-0 z-20 mt-1 w-80 rounded-md border border-line bg-panel p-1 shadow-lg">
          {saved.length === 0 ? (
            <p className="px-2 py-3 text-xs text-muted">Nothing saved yet. Searches are kept in this browser only.</p>
          ) : (
            <ul aria-label="Saved searches">
              {saved.map((s) => (
                <li key={s.name} className="flex items-center gap-1 rounded hover:bg-hover">
                  <Link href={`${paths.search()}?${s.query}`} className="min-w-0 flex-1 truncate px-2 py-1.5 text-[13px]" title={s.query}
                    onClick={() => menu.current && (menu.current.open = false)}>
                    {s.name}
                  </Link>
                  <button type="button" aria-label={`Forget saved search ${s.name}`} onClick={() => deleteSavedSearch(s.name)}
                    className="grid size-6 place-items-center rounded text-subtle hover:text-danger">
                    <Icon name="x" size={11} />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </details>
      <Button disabled={filter.length === 0} onClick={() => { setName(describe(filter).slice(0, 60)); setNaming(true); }}>
        Save search
      </Button>
      {filter.length > 0 && <CopyButton getText={() => window.location.href} label="Copy link" />}
      <Dialog
        open={naming}
        onClose={() => setNaming(false)}
        title="Save this search"
        footer={
          <>
            <Button onClick={() => setNaming(false)}>Cancel</Button>
            <Button variant="primary" type="submit" form="save-search" disabled={name.trim() === ''}>Save</Button>
          </>
        }
      >
        <form id="save-search" className="flex flex-col gap-2" onSubmit={(e) => { e.preventDefault(); saveSearch(name.trim(), query); setNaming(false); }}>
          <label htmlFor="save-search-name" className="text-xs">Name</label>
          <Input id="save-search-name" autoFocus value={name} onChange={(e) => setName(e.target.value)} />
          <p className="text-xs break-all text-subtle">{describe(filter)}</p>
        </form>
      </Dialog>
    </>
  );
}
