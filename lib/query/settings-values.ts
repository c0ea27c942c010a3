/**
 * The viewer's preferences as stored in localStorage: their shape, defaults and parser. No
 * React here, so the root layout's theme script can share the storage key.
 */
export type ThemePref = 'system' | 'light' | 'dark';

export interface Settings {
  /** 0 turns polling off. */
  pollIntervalMs: number;
  theme: ThemePref;
}

export const POLL_INTERVALS = [0, 2000, 5000, 10_000, 30_000, 60_000] as const;
export const DEFAULT_SETTINGS: Settings = { pollIntervalMs: 5000, theme: 'system' };
export const SETTINGS_KEY = 'asynqlens:settings';

/** Stored JSON → settings; anything unknown or malformed falls back to the default. */
export function parseSettings(raw: string | null): Settings {
  try {
    const v = JSON.parse(raw ?? '{}') as Partial<Settings>;
    return {
      pollIntervalMs: POLL_INTERVALS.includes(v.pollIntervalMs as never) ? (v.pollIntervalMs as number) : DEFAULT_SETTINGS.pollIntervalMs,
      theme: v.theme === 'light' || v.theme === 'dark' || v.theme === 'system' ? v.theme : DEFAULT_SETTINGS.theme,
    };
  } catch {
    return DEFAULT_SETTINGS;
  }
}
