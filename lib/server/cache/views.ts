import 'server-only';

/**
 * Cached views: one Redis read per view and key per TTL, however many viewers ask. Concurrent
 * requests share the read in flight; its answer is reused for `ttlMs` after it lands; a failed read is not
 * kept, so the next request tries Redis again at once. After a mutation, invalidateViews()
 * forgets every view a mutation can change, so the tab that made a change sees it on its next
 * read. Entries live on globalThis: route handlers and server-rendered pages are separate
 * bundles in one process, and a mutation through either must clear what both show.
 */
export interface ViewRules<T> {
  /** Unique across the app: the view's entries on globalThis. */
  name: string;
  /** How long an answer is reused; 0 or less reads Redis on every call. */
  ttlMs: number | (() => number);
  /** Whether a console mutation can change what the view shows (then invalidateViews forgets it). */
  changedByMutations: boolean;
  /** Keys kept at most; past it the oldest goes. */
  maxEntries?: number;
  /** Answers refused here are not kept (a scan's answer while the scan still runs). */
  keep?: (value: T) => boolean;
}

export type CachedView<T> = <V extends T>(key: string, read: () => Promise<V>) => Promise<V>;

interface Store {
  entries: Map<string, { at: number; value: Promise<unknown> }>;
  changedByMutations: boolean;
}

const g = globalThis as unknown as { asynqlensViews?: Map<string, Store> };
const stores: Map<string, Store> = (g.asynqlensViews ??= new Map<string, Store>());

export function cachedView<T>(rules: ViewRules<T>): CachedView<T> {
  let store = stores.get(rules.name);
  if (!store) stores.set(rules.name, (store = { entries: new Map(), changedByMutations: rules.changedByMutations }));
  const { entries } = store;
  const max = rules.maxEntries ?? 1000;
  return <V extends T>(key: string, read: () => Promise<V>): Promise<V> => {
    const ttl = typeof rules.ttlMs === 'function' ? rules.ttlMs() : rules.ttlMs;
    if (ttl <= 0) return read();
    const now = Date.now();
    const hit = entries.get(key);
    // In flight (at = +∞) or younger than the TTL.
    if (hit && now - hit.at < ttl) return hit.value as Promise<V>;
    const value = read();
    const drop = () => {
      if (entries.get(key)?.value === value) entries.delete(key);
    };
    // The answer's age counts from when it lands, not from when the read began: a read longer
    // than the TTL (the queue list at tens of thousands of queues) would otherwise be stale on
    // arrival, and every request would start another one back to back. While in flight it is
    // shared by every caller.
    const entry = { at: Number.POSITIVE_INFINITY, value: value as Promise<unknown> };
    value.then((v) => {
      if (rules.keep && !rules.keep(v)) drop();
      else entry.at = Date.now();
    }, drop);
    // Re-inserted, so the Map's order stays oldest first.
    entries.delete(key);
    if (entries.size >= max) entries.delete(entries.keys().next().value!);
    entries.set(key, entry);
    return value;
  };
}

/** Forgets every view a mutation can change (route() calls it after each mutation). */
export function invalidateViews(): void {
  for (const store of stores.values()) if (store.changedByMutations) store.entries.clear();
}
