'use client';

import { lazy, Suspense, useEffect, useState } from 'react';
import { SHORTCUTS } from './shortcuts';

// The dialog's code is fetched on the first `?`: every page carries the listener, not the
// dialog (the overview's JavaScript budget has no room for it).
const ShortcutsList = lazy(() => import('./shortcuts-list').then((m) => ({ default: m.ShortcutsList })));

/** `?` on any page: every shortcut, read from the table the handlers use. */
export function ShortcutsDialog() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!SHORTCUTS.help.matches(e)) return;
      e.preventDefault();
      setOpen(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return open ? (
    <Suspense fallback={null}>
      <ShortcutsList onClose={() => setOpen(false)} />
    </Suspense>
  ) : null;
}
