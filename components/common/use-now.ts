'use client';

import { useSyncExternalStore } from 'react';

/**
 * One shared clock for every countdown and "3m ago" on the page: a single 1 s interval however
 * many cells use it, stopped when nothing listens. Returns 0 on the server (render "—").
 */
let now = 0;
let timer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

function subscribe(l: () => void) {
  listeners.add(l);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((fn) => fn());
    }, 1000);
  }
  return () => {
    listeners.delete(l);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now || Date.now(), () => 0);
}
