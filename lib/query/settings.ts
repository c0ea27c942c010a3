/**
 * The viewer's preferences (poll interval, theme), kept in localStorage and shared by every
 * component (see localStore).
 */
import { useCallback } from 'react';
import { localStore } from './local-store';
import { DEFAULT_SETTINGS, parseSettings, SETTINGS_KEY, type Settings } from './settings-values';

const store = localStore(SETTINGS_KEY, parseSettings, DEFAULT_SETTINGS);

export const readSettings = store.read;

export function writeSettings(patch: Partial<Settings>): void {
  store.write({ ...store.read(), ...patch });
}

export function useSettings(): [Settings, (patch: Partial<Settings>) => void] {
  return [store.useValue(), useCallback(writeSettings, [])];
}
