import type { ReactNode } from 'react';
import { Icon, type IconName } from '@/components/ui/icons';
import { paths } from '@/lib/paths';
import { NavLink } from './nav-link';
import { ShellSearch } from './shell-search';

const NAV: { href: string; label: string; icon: IconName }[] = [
  { href: paths.overview(), label: 'Overview', icon: 'overview' },
  { href: paths.failures(), label: 'Failures', icon: 'alert' },
  { href: paths.search(), label: 'Search', icon: 'search' },
  { href: paths.enqueue(), label: 'Enqueue', icon: 'plus' },
  { href: paths.servers(), label: 'Servers', icon: 'server' },
  { href: paths.schedulers(), label: 'Schedulers', icon: 'clock' },
  { href: paths.routing(), label: 'Routing', icon: 'route' },
  { href: paths.uniqueness(), label: 'Uniqueness', icon: 'lock' },
  { href: paths.redis(), label: 'Redis', icon: 'database' },
  { href: '/audit', label: 'Audit log', icon: 'queue' },
  { href: paths.settings(), label: 'Settings', icon: 'settings' },
];

/**
 * The sidebar, server-rendered: only the active-link highlight ships JavaScript. `children` are
 * its live parts (queue list, status), which the layout streams in.
 */
export function AppSidebar({ children, account }: { children: ReactNode; account?: ReactNode }) {
  return (
    <aside className="shrink-0 border-b border-line bg-bg-subtle md:w-56 md:border-r md:border-b-0">
      <div className="flex flex-col md:sticky md:top-0 md:h-dvh">
        <div className="flex h-12 items-center gap-2 px-4">
          <span aria-hidden className="grid size-5 place-items-center rounded bg-accent text-[11px] font-bold text-accent-fg">
            a
          </span>
          <NavLink href={paths.overview()} plain>
            <span className="text-sm font-semibold tracking-tight text-fg">asynqlens</span>
          </NavLink>
        </div>
        {account}
        <ShellSearch />
        <nav aria-label="Main" className="flex gap-0.5 overflow-x-auto px-2 md:flex-col">
          {NAV.map((item) => (
            <NavLink key={item.href} href={item.href}>
              <Icon name={item.icon} />
              {item.label}
            </NavLink>
          ))}
        </nav>
        {children}
      </div>
    </aside>
  );
}
