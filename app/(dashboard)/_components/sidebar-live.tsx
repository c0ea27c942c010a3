import { SidebarQueues } from '@/components/layout/sidebar-queues';
import { SidebarStatus } from '@/components/layout/sidebar-status';
import { loadLive } from '../_data/load';

/** The sidebar's live parts, first rendered from the shell's live snapshot, then kept by the poller. */
export async function SidebarLive() {
  const seed = await loadLive(null);
  return (
    <>
      <SidebarQueues seed={seed} />
      <SidebarStatus seed={seed} />
    </>
  );
}
