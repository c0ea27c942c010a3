/**
 * Searches the viewer saved, by name, in localStorage (this browser only), shared by every
 * component (see localStore).
 */
import { localStore } from './local-store';

export interface SavedSearch {
  name: string;
  /** The filter's query string, as in the search page's URL. */
  query: string;
}

export const SAVED_SEARCHES_KEY = 'asynqlens:saved-searches';
const EMPTY: SavedSearch[] = [];

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

const store = localStore(SAVED_SEARCHES_KEY, parse, EMPTY);

/** Saves `query` under `name`, replacing a search of the same name; newest first. */
export function saveSearch(name: string, query: string): void {
  store.write([{ name, query }, ...store.read().filter((s) => s.name !== name)]);
}

export function deleteSavedSearch(name: string): void {
  store.write(store.read().filter((s) => s.name !== name));
}

export function useSavedSearches(): SavedSearch[] {
  return store.useValue();
}
