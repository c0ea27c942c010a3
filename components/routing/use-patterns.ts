'use client';

import { useEffect, useState } from 'react';
import { useDebounced } from '@/components/common/use-debounced';
import type { RoutingPatternsDto } from '@/lib/contract/triage';

const STORAGE_KEY = 'asynqlens:routing-patterns';

/** Where the patterns on screen came from. */
export type PatternsOrigin = 'link' | 'saved' | 'file' | 'typed' | 'none';

function readSaved(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage disabled (privacy modes)
  }
}

function save(text: string): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, text);
  } catch {
    // Not kept past this page, but the URL still carries them.
  }
}

interface Options {
  /** The patterns in the URL; undefined when it has none. */
  fromUrl: string | undefined;
  /** The routing file: undefined while it loads, null when it cannot be read. */
  file: RoutingPatternsDto | null | undefined;
  /** Writes the settled text to the URL (replacing the history entry). */
  writeUrl: (text: string) => void;
}

/**
 * The pattern text and where it came from: a shared link's, else the last ones typed in this
 * browser, else the deployment's routing file. Once the typing stops (400 ms) the text goes to
 * the URL, so the view can be shared, and to localStorage, so it is there next time.
 */
export function usePatterns({ fromUrl, file, writeUrl }: Options) {
  const [state, setState] = useState<{ text: string; origin: PatternsOrigin } | null>(fromUrl !== undefined ? { text: fromUrl, origin: 'link' } : null);
  useEffect(() => {
    if (state !== null) return;
    const saved = readSaved();
    if (saved !== null) setState({ text: saved, origin: 'saved' });
    else if (file !== undefined) setState(file?.patterns.length ? { text: file.patterns.join('\n'), origin: 'file' } : { text: '', origin: 'none' });
  }, [state, file]);
  const settled = useDebounced(state, 400);
  useEffect(() => {
    if (!settled || settled.origin === 'none') return;
    save(settled.text);
    writeUrl(settled.text);
  }, [settled, writeUrl]);
  return {
    text: state?.text ?? '',
    origin: state?.origin ?? 'none',
    /** Null until the saved patterns were read. */
    settledText: settled?.text ?? null,
    type: (text: string) => setState({ text, origin: 'typed' }),
    loadFile: () => file && setState({ text: file.patterns.join('\n'), origin: 'file' }),
  };
}
