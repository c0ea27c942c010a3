import { SidebarQueues } from '@/components/layout/sidebar-queues';
import { SidebarStatus } from '@/components/layout/sidebar-status';
import { loadHealth, loadQueues } from '../_data/load';

/** The sidebar's data: the queue list (the API's shared snapshot) and the Redis status. */
export async function SidebarLive() {
  const [queues, health] = await Promise.all([loadQueues(), loadHealth()]);
  return (
    <>
      <SidebarQueues queues={queues.ok ? queues.data : []} />
      <SidebarStatus health={health} failure={queues.ok ? null : queues.error.message} />
    </>
  );
}
