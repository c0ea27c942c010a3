/**
 * A value kept in localStorage under one key (this browser only) and shared by every component
 * through useSyncExternalStore. The parsed value is kept per stored text, so a snapshot stays
 * the same object until the text changes; other tabs follow through the `storage` event. With
 * storage disabled (privacy modes) reads give `fallback` and writes last for this page only.
 */
import { useSyncExternalStore } from 'react';

export function localStore<T>(key: string, parse: (raw: string | null) => T, fallback: T) {
  const listeners = new Set<() => void>();
  let cached: { raw: string | null; value: T } | undefined;

  function read(): T {
    let raw: string | null = null;
    try {
      raw = window.localStorage.getItem(key);
    } catch {
      // Storage disabled: what this page wrote, else what parse makes of nothing.
    }
    if (cached?.raw !== raw) cached = { raw, value: parse(raw) };
    return cached.value;
  }

  function subscribe(listener: () => void): () => void {
    listeners.add(listener);
    const onStorage = (e: StorageEvent) => e.key === key && listener();
    window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', onStorage);
    };
  }

  function write(next: T): void {
    try {
      window.localStorage.setItem(key, JSON.stringify(next));
    } catch {
      cached = { raw: null, value: next };
    }
    listeners.forEach((l) => l());
  }

  /** The value, re-rendering on every write here or in another tab; `fallback` on the server. */
  function useValue(): T {
    return useSyncExternalStore(subscribe, read, () => fallback);
  }

  return { read, write, useValue };
}
