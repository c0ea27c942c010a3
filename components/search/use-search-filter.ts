'use client';

import { useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { paths, type QueryPairs } from '@/lib/paths';
import { parseSearchView } from '@/lib/url-state';

/**
 * The search filter, kept in the URL as the API's own parameters (`?q=type:email:*&state=retry`),
 * so the address bar is the shareable link. The shell's box lands here as `?q=`, the same
 * search query the page's box edits: the server parses it, never the browser.
 */
export function useSearchFilter() {
  const sp = useSearchParams();
  const view = useMemo(() => parseSearchView(new URLSearchParams(sp.toString())), [sp]);
  const setFilter = useCallback((next: QueryPairs, mode: 'push' | 'replace' = 'push') => {
    window.history[mode === 'push' ? 'pushState' : 'replaceState'](null, '', paths.search(next));
  }, []);
  return { filter: view.filter, ignored: view.ignored, setFilter };
}
