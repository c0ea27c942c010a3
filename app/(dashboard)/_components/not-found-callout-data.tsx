import { NotFoundCallout } from '@/components/failures/overview-callout';
import type { QueueStatsDto } from '@/lib/contract/queues';
import { loadNotFound } from '../_data/load';

/**
 * The overview's handler-not-found callout, read on the server. A failed read shows nothing:
 * the overview's own error states already say when Redis cannot be read.
 */
export async function NotFoundCalloutData({ queues }: { queues: QueueStatsDto[] }) {
  const groups = await loadNotFound(queues);
  return groups.ok ? <NotFoundCallout banner={groups.data} /> : null;
}
