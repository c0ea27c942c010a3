import { Suspense, type ReactNode } from 'react';
import { AppSidebar } from '@/components/layout/app-sidebar';
import { ShellStatus } from './_components/shell-status';
import { SidebarLive } from './_components/sidebar-live';

/**
 * The console's shell. The frame renders at once; the parts that read Redis (the sidebar's
 * queue list and status, the Redis banner) stream in, so a slow Redis never blanks the page.
 */
export default function DashboardLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col md:flex-row">
      <AppSidebar>
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
  );
}
