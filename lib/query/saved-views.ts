/**
 * Views the viewer saved by name in localStorage (this browser only): a name and the view's
 * address (path and query, without the base path), which holds every filter, sort, tab, page
 * and range, so opening it is opening the link. Shared by every component (see localStore).
 */
import { localStore } from './local-store';

export interface SavedView {
  name: string;
  /** The view's address inside the console, e.g. `/queues/emails?state=archived&q=type%3Amail`. */
  url: string;
}

export const SAVED_VIEWS_KEY = 'asynqlens:saved-views';
const EMPTY: SavedView[] = [];
const MAX_VIEWS = 100;

/** Only console-internal addresses: a stored value is data, never a way to navigate elsewhere. */
export const isConsolePath = (url: string): boolean => url.startsWith('/') && !url.startsWith('//') && !url.includes('\\');

function parse(raw: string | null): SavedView[] {
  try {
    const v = JSON.parse(raw ?? '[]') as unknown;
    if (!Array.isArray(v)) return EMPTY;
    return (v as unknown[]).filter((s): s is SavedView => {
      const o = s as Partial<SavedView> | null;
      return typeof o?.name === 'string' && typeof o.url === 'string' && isConsolePath(o.url);
    });
  } catch {
    return EMPTY;
  }
}

const store = localStore(SAVED_VIEWS_KEY, parse, EMPTY);

/** Saves `url` under `name`, replacing a view of the same name; newest first, at most 100. */
export function saveView(name: string, url: string): void {
  if (!isConsolePath(url)) return;
  store.write([{ name, url }, ...store.read().filter((s) => s.name !== name)].slice(0, MAX_VIEWS));
}

export function deleteSavedView(name: string): void {
  store.write(store.read().filter((s) => s.name !== name));
}

export function useSavedViews(): SavedView[] {
  return store.useValue();
}
