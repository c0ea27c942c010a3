import { Suspense, type ReactNode } from 'react';
import { AccountMenu } from '@/components/auth/account-menu';
import { AccountProvider } from '@/components/auth/account-provider';
import { AppSidebar } from '@/components/layout/app-sidebar';
import { ShortcutsDialog } from '@/components/layout/shortcuts-dialog';
import { basePath, currentAccount } from '@/lib/server/auth/current';
import { ShellStatus } from './_components/shell-status';
import { SidebarLive } from './_components/sidebar-live';

/**
 * The console's shell. The frame renders at once; the parts that read Redis (the sidebar's
 * queue list and status, the Redis banner) stream in, so a slow Redis never blanks the page.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  // The signed-in account (proxy.ts let the request in): shown in the sidebar, and it makes the
  // UI read-only for viewers. Read from the request itself, no I/O.
  const account = await currentAccount();
  return (
    <AccountProvider account={account}>
      {/* The first Tab stop: past the sidebar (a dozen links and every queue) to the page itself. */}
      <a href="#content" className="sr-only rounded-md bg-accent px-3 py-2 text-[13px] font-medium text-accent-fg focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50">
        Skip to content
      </a>
      <ShortcutsDialog />
      <div className="flex min-h-dvh flex-col md:flex-row">
        <AppSidebar account={<AccountMenu basePath={basePath()} />}>
          <Suspense fallback={<div className="flex-1" />}>
            <SidebarLive />
          </Suspense>
        </AppSidebar>
        <div className="flex min-w-0 flex-1 flex-col">
          <Suspense>
            <ShellStatus />
          </Suspense>
          <main id="content" tabIndex={-1} className="mx-auto outline-none flex w-full max-w-[1400px] flex-1 flex-col gap-4 px-4 py-5 md:px-6">{children}</main>
        </div>
      </div>
    </AccountProvider>
  );
}
