'use client';

import { useCallback, useState } from 'react';

export interface Selection {
  ids: ReadonlySet<string>;
  /** Every task in the state, not just the ticked rows of this page. */
  allInState: boolean;
  toggle: (id: string) => void;
  setPage: (ids: string[], on: boolean) => void;
  selectAllInState: () => void;
  clear: () => void;
}

/** Ticked rows of the current page, or "all N in this state". Cleared when the view changes. */
export function useSelection(resetKey: string): Selection {
  const [state, setState] = useState({ key: resetKey, ids: new Set<string>(), all: false });
  const current = state.key === resetKey ? state : { key: resetKey, ids: new Set<string>(), all: false };
  if (current !== state) setState(current);
  const toggle = useCallback(
    (id: string) =>
      setState((s) => {
        const ids = new Set(s.ids);
        if (ids.has(id)) ids.delete(id);
        else ids.add(id);
        return { ...s, ids, all: false };
      }),
    [],
  );
  const setPage = useCallback(
    (ids: string[], on: boolean) => setState((s) => ({ ...s, ids: on ? new Set(ids) : new Set(), all: false })),
    [],
  );
  const selectAllInState = useCallback(() => setState((s) => ({ ...s, all: true })), []);
  const clear = useCallback(() => setState((s) => ({ ...s, ids: new Set(), all: false })), []);
  return { ids: current.ids, allInState: current.all, toggle, setPage, selectAllInState, clear };
}
