/**
 * Searches the viewer saved, by name, in localStorage (this browser only). Shared by every
 * component through useSyncExternalStore; other tabs follow through the `storage` event.
 */
import { useSyncExternalStore } from 'react';

export interface SavedSearch {
  name: string;
  /** The filter's query string, as in the search page's URL. */
  query: string;
}

export const SAVED_SEARCHES_KEY = 'asynqlens:saved-searches';
const EMPTY: SavedSearch[] = [];
const listeners = new Set<() => void>();
let cached: { raw: string | null; value: SavedSearch[] } | undefined;

function parse(raw: string | null): SavedSearch[] {
  try {
    const v = JSON.parse(raw ?? '[]') as unknown;
    if (!Array.isArray(v)) return EMPTY;
    return (v as unknown[]).filter((s): s is SavedSearch => {
      const o = s as Partial<SavedSearch> | null;
      return typeof o?.name === 'string' && typeof o.query === 'string';
    });
  } catch {
    return EMPTY;
  }
}

function read(): SavedSearch[] {
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(SAVED_SEARCHES_KEY);
  } catch {
    // Storage disabled (privacy modes): nothing saved.
  }
  if (cached?.raw !== raw) cached = { raw, value: parse(raw) };
  return cached.value;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => e.key === SAVED_SEARCHES_KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

function write(next: SavedSearch[]): void {
  try {
    window.localStorage.setItem(SAVED_SEARCHES_KEY, JSON.stringify(next));
  } catch {
    cached = { raw: null, value: next };
  }
  listeners.forEach((l) => l());
}

/** Saves `query` under `name`, replacing a search of the same name; newest first. */
export function saveSearch(name: string, query: string): void {
  write([{ name, query }, ...read().filter((s) => s.name !== name)]);
}

export function deleteSavedSearch(name: string): void {
  write(read().filter((s) => s.name !== name));
}

export function useSavedSearches(): SavedSearch[] {
  return useSyncExternalStore(subscribe, read, () => EMPTY);
}
