'use client';

import { useEffect, useRef, type ReactNode } from 'react';
import { cn } from '@/lib/utils';

export interface TabItem {
  key: string;
  label: ReactNode;
  count?: number | undefined;
  /** Each tab is a real link, so it can be opened in a new tab or shared. */
  href: string;
}

interface TabsProps {
  items: TabItem[];
  active: string;
  onSelect: (key: string) => void;
  label: string;
}

/**
 * A row of link-tabs. A plain click calls `onSelect` (the caller updates the URL without a
 * server round trip); a modified click (ctrl, cmd, middle) keeps the browser's behaviour.
 * On a narrow screen the row scrolls sideways, and the current tab is scrolled into view so it
 * is never off to the side.
 */
export function Tabs({ items, active, onSelect, label }: TabsProps) {
  const nav = useRef<HTMLElement>(null);
  // Counts arrive after the first paint and widen the tabs: scroll again when they change.
  const counts = items.map((t) => t.count ?? '').join();
  useEffect(() => {
    // 'nearest' on both axes: the row scrolls sideways; the page moves only if the tab is off screen.
    nav.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [active, counts]);
  return (
    <nav ref={nav} aria-label={label} className="-mb-px flex gap-1 overflow-x-auto">
      {items.map((t) => {
        const selected = t.key === active;
        return (
          <a
            key={t.key}
            href={t.href}
            aria-current={selected ? 'page' : undefined}
            onClick={(e) => {
              if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
              e.preventDefault();
              onSelect(t.key);
            }}
            className={cn(
              'flex h-9 items-center gap-1.5 border-b-2 px-2.5 text-[13px] whitespace-nowrap transition-colors',
              selected ? 'border-accent font-medium text-fg' : 'border-transparent text-muted hover:text-fg',
            )}
          >
            {t.label}
            {t.count !== undefined && (
              <span
                className={cn(
                  'tabular rounded px-1 text-[11px]',
                  selected ? 'bg-accent-soft text-fg' : 'bg-hover text-muted',
                )}
              >
                {t.count.toLocaleString('en-US')}
              </span>
            )}
          </a>
        );
      })}
    </nav>
  );
}
