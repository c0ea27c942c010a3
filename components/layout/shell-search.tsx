'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { SHORTCUTS } from './shortcuts';

/**
 * The search box on every page, and its shortcuts: `/` (when not typing) and Ctrl/⌘+K focus
 * whichever search box the page shows (the search page has its own, so this one steps aside
 * there). Deliberately tiny, since it ships with the overview (150 KB budget): a plain GET form
 * that works before hydration, no icon set, no path helpers; the search page itself loads only
 * when it is opened.
 */
export function ShellSearch() {
  const router = useRouter();
  const pathname = usePathname();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!SHORTCUTS.searchCombo.matches(e) && !SHORTCUTS.search.matches(e)) return;
      const box = [...document.querySelectorAll<HTMLInputElement>('[data-search-input]')].pop();
      if (!box) return;
      e.preventDefault();
      box.focus();
      box.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  if (pathname === '/search') return null;
  return (
    <form
      role="search"
      action="/search"
      className="relative mx-2 mb-2 flex items-center"
      onSubmit={(e) => {
        e.preventDefault();
        const input = e.currentTarget.elements.namedItem('q') as HTMLInputElement;
        router.push(`/search?q=${encodeURIComponent(input.value.trim())}`);
        input.value = '';
        input.blur();
      }}
    >
      <svg aria-hidden width="13" height="13" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" className="pointer-events-none absolute left-2 text-subtle">
        <path d="M7 2.5a4.5 4.5 0 1 0 0 9a4.5 4.5 0 1 0 0-9M10.3 10.3 13.5 13.5" />
      </svg>
      <input
        data-search-input
        name="q"
        type="search"
        aria-label="Search tasks"
        placeholder="Search tasks…"
        autoComplete="off"
        className="h-8 w-full rounded-md border border-line bg-panel pr-7 pl-7 text-[13px] text-fg placeholder:text-subtle [&::-webkit-search-cancel-button]:hidden"
      />
      <kbd className="pointer-events-none absolute right-2 inline-flex h-4 min-w-4 items-center justify-center rounded border border-line-strong bg-bg-subtle px-1 font-mono text-[10px] text-muted">
        /
      </kbd>
    </form>
  );
}
