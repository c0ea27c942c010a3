import { Suspense, type ReactNode } from 'react';
import { AccountMenu } from '@/components/auth/account-menu';
import { AccountProvider } from '@/components/auth/account-provider';
import { AppSidebar } from '@/components/layout/app-sidebar';
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
          <main className="mx-auto flex w-full max-w-[1400px] flex-1 flex-col gap-4 px-4 py-5 md:px-6">{children}</main>
        </div>
      </div>
    </AccountProvider>
  );
}
