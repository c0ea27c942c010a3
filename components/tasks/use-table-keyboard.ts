'use client';

import { useEffect, useState } from 'react';
import { SHORTCUTS, typingIn } from '@/components/layout/shortcuts';

interface Options {
  rowCount: number;
  onOpen: (index: number) => void;
  onToggle: (index: number) => void;
  /** Changing this (a new page or state) puts the cursor back on the first row. */
  resetKey: string;
}

/**
 * Keyboard control of a task table (the keys are in SHORTCUTS): move the cursor, open the
 * row, select it. Keys typed into a field or an open dialog are left alone.
 */
export function useTableKeyboard({ rowCount, onOpen, onToggle, resetKey }: Options) {
  const [cursor, setCursor] = useState(-1);
  const [prevKey, setPrevKey] = useState(resetKey);
  if (prevKey !== resetKey) {
    setPrevKey(resetKey);
    setCursor(-1);
  }
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.metaKey || e.ctrlKey || e.altKey || typingIn(e.target) || rowCount === 0) return;
      const move = (delta: number) => {
        e.preventDefault();
        setCursor((c) => Math.min(rowCount - 1, Math.max(0, c < 0 ? 0 : c + delta)));
      };
      if (SHORTCUTS.down.matches(e)) move(1);
      else if (SHORTCUTS.up.matches(e)) move(-1);
      else if (SHORTCUTS.open.matches(e) && cursor >= 0 && !(e.target instanceof HTMLAnchorElement || e.target instanceof HTMLButtonElement)) {
        e.preventDefault();
        onOpen(cursor);
      } else if (SHORTCUTS.select.matches(e) && cursor >= 0) {
        e.preventDefault();
        onToggle(cursor);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [rowCount, cursor, onOpen, onToggle]);
  useEffect(() => {
    if (cursor >= 0) document.querySelector(`[data-row-index="${cursor}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [cursor]);
  return { cursor: Math.min(cursor, rowCount - 1), setCursor };
}
