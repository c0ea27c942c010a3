'use client';

import { useRouter } from 'next/navigation';
import type { AnchorHTMLAttributes } from 'react';

/**
 * A client-side navigating <a>. Not next/link: with prefetching off (pages here are thin shells
 * whose data comes from the API, and a table of 500 queues would otherwise fire 500 RSC
 * prefetches) next/link adds ~4 KB of gzipped JavaScript to every page for nothing the router
 * does not already do. Modified clicks (new tab, download) keep the browser's behaviour.
 */
interface LinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  href: string;
  /** Replace the history entry and keep the scroll position (view controls such as the chart's range). */
  replace?: boolean;
}

export function Link({ href, onClick, replace, ...props }: LinkProps) {
  const router = useRouter();
  return (
    <a
      href={href}
      onClick={(e) => {
        onClick?.(e);
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || props.target) return;
        e.preventDefault();
        if (replace) router.replace(href, { scroll: false });
        else router.push(href);
      }}
      {...props}
    />
  );
}
