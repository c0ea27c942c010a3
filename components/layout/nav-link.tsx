'use client';

import { usePathname } from 'next/navigation';
import type { ReactNode } from 'react';
import { Link } from '@/components/ui/link';
import { cn } from '@/lib/utils';

interface Props {
  href: string;
  children: ReactNode;
  /** Active on `href` and below it only (queues), not on every path it prefixes. */
  exact?: boolean;
  /** No active styling (the brand link). */
  plain?: boolean;
  title?: string;
}

/** A sidebar entry that knows whether it is the current page. Its content comes from the server. */
export function NavLink({ href, children, exact, plain, title }: Props) {
  const pathname = usePathname();
  if (plain) return <Link href={href}>{children}</Link>;
  const active = href === '/' ? pathname === '/' : exact ? pathname === href || pathname.startsWith(`${href}/`) : pathname.startsWith(href);
  return (
    <Link
      href={href}
      title={title}
      aria-current={active ? 'page' : undefined}
      className={cn(
        'flex items-center gap-2 rounded-md px-2 text-[13px] whitespace-nowrap',
        exact ? 'h-7' : 'h-8',
        active ? 'bg-hover font-medium text-fg' : 'text-muted hover:bg-hover hover:text-fg',
      )}
    >
      {children}
    </Link>
  );
}
