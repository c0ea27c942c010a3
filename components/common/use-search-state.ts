'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { withQuery } from '@/lib/paths';
import type { SearchParamsLike } from '@/lib/url-state';

type Patch = Record<string, string | number | undefined | null>;

/** The current URL with `patch` applied to its search params (null/undefined/'' removes a key). */
export function hrefWith(search: URLSearchParams, pathname: string, patch: Patch): string {
  const merged: Record<string, string | number | null | undefined> = Object.fromEntries(search);
  Object.assign(merged, patch);
  return withQuery(pathname, merged);
}

/**
 * A page's view state read from, and written to, the URL. Writes use the History API, which
 * Next's router observes: the URL (and `useSearchParams`) update without a server round trip.
 */
export function useSearchState<T>(parse: (sp: SearchParamsLike) => T) {
  const sp = useSearchParams();
  const pathname = usePathname();
  const state = useMemo(() => parse(new URLSearchParams(sp.toString())), [sp, parse]);
  const href = useCallback((patch: Patch) => hrefWith(new URLSearchParams(sp.toString()), pathname, patch), [sp, pathname]);
  const set = useCallback(
    (patch: Patch, mode: 'push' | 'replace' = 'push') => {
      const url = hrefWith(new URLSearchParams(window.location.search), window.location.pathname, patch);
      window.history[mode === 'push' ? 'pushState' : 'replaceState'](null, '', url);
    },
    [],
  );
  return [state, set, href] as const;
}
