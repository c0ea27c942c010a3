'use client';

import { useLayoutEffect } from 'react';
import { readSettings, useSettings } from '@/lib/query/settings';
import type { ThemePref } from '@/lib/query/settings-values';

function resolve(pref: ThemePref): 'light' | 'dark' {
  if (pref !== 'system') return pref;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/**
 * Keeps <html data-theme> in step with the setting after the first paint (the inline script in
 * the root layout handles the first one), and follows the OS while the setting is "system".
 */
export function ThemeSync() {
  const [{ theme }] = useSettings();
  useLayoutEffect(() => {
    // Read storage, not `theme`: during hydration `theme` is still the server default.
    const apply = () => document.documentElement.setAttribute('data-theme', resolve(readSettings().theme));
    apply();
    if (theme !== 'system') return;
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    mq.addEventListener('change', apply);
    return () => mq.removeEventListener('change', apply);
  }, [theme]);
  return null;
}
