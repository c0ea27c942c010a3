import { LivePoller } from '@/components/layout/live-poller';
import { RedisBanner } from '@/components/layout/redis-banner';
import { loadLive } from '../_data/load';

/** The Redis banner when the queues cannot be read, and the tab's one poller of the live snapshot. */
export async function ShellStatus() {
  const seed = await loadLive(null);
  return (
    <>
      <RedisBanner seed={seed} />
      <LivePoller />
    </>
  );
}
