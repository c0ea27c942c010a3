'use client';

import { useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useMemo } from 'react';
import { paths, type QueryPairs } from '@/lib/paths';
import { mergeFilter, parseSearchView } from '@/lib/url-state';
import { parseQuickQuery } from './quick-query';

/**
 * The search filter, kept in the URL as the API's own parameters (`?queue=a&state=retry`), so
 * the address bar is the shareable link. Text arriving from the shell's box (`?q=`) is turned
 * into filters at once, and the URL rewritten to them.
 */
export function useSearchFilter() {
  const sp = useSearchParams();
  const view = useMemo(() => parseSearchView(new URLSearchParams(sp.toString())), [sp]);
  const filter = useMemo(() => (view.q ? mergeFilter(view.filter, parseQuickQuery(view.q)) : view.filter), [view]);
  const setFilter = useCallback((next: QueryPairs, mode: 'push' | 'replace' = 'push') => {
    window.history[mode === 'push' ? 'pushState' : 'replaceState'](null, '', paths.search(next));
  }, []);
  useEffect(() => {
    if (view.q !== undefined) setFilter(filter, 'replace');
  }, [view.q, filter, setFilter]);
  return { filter, ignored: view.ignored, setFilter };
}
