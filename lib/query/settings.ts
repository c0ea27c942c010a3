/**
 * The viewer's preferences (poll interval, theme), kept in localStorage and shared by every
 * component through useSyncExternalStore. Other tabs see a change through the `storage` event.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { DEFAULT_SETTINGS, parseSettings, SETTINGS_KEY, type Settings } from './settings-values';

const listeners = new Set<() => void>();
let cached: { raw: string | null; value: Settings } | undefined;

export function readSettings(): Settings {
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(SETTINGS_KEY);
  } catch {
    // Storage can be disabled (privacy modes); the defaults apply then.
  }
  if (cached && cached.raw === raw) return cached.value;
  cached = { raw, value: parseSettings(raw) };
  return cached.value;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => e.key === SETTINGS_KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function writeSettings(patch: Partial<Settings>): void {
  const next = { ...readSettings(), ...patch };
  try {
    window.localStorage.setItem(SETTINGS_KEY, JSON.stringify(next));
  } catch {
    cached = { raw: null, value: next };
  }
  listeners.forEach((l) => l());
}

export function useSettings(): [Settings, (patch: Partial<Settings>) => void] {
  const settings = useSyncExternalStore(subscribe, readSettings, () => DEFAULT_SETTINGS);
  return [settings, useCallback(writeSettings, [])];
}
