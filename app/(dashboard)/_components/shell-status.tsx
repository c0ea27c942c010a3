import { AutoRefresh } from '@/components/layout/auto-refresh';
import { RedisBanner } from '@/components/layout/redis-banner';
import { queueListFingerprint } from '@/lib/query/fingerprints';
import { loadQueues } from '../_data/load';

/** The Redis banner when the queues cannot be read, and the refresh loop of the server-rendered parts. */
export async function ShellStatus() {
  const queues = await loadQueues();
  return (
    <>
      {!queues.ok && <RedisBanner code={queues.error.code} message={queues.error.message} />}
      <AutoRefresh fingerprint={queues.ok ? queueListFingerprint({ queues: queues.data }) : 'failing'} failing={!queues.ok} />
    </>
  );
}
