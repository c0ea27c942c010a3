/**
 * What counts as "the data changed" for polling: the figures, without the fields that change on
 * every read (timestamp, latency, memory). Pure, so server components can use it too.
 */
import type { QueueStatsDto } from '@/lib/contract/queues';

/** Stats minus the fields that change on every read, for the poll's "did anything change". */
export function queueFingerprint(q: QueueStatsDto): string {
  const { timestamp: _t, latencySeconds: _l, memoryUsageBytes: _m, ...rest } = q;
  return JSON.stringify(rest);
}

export const queueListFingerprint = (d: { queues: QueueStatsDto[] }): string => d.queues.map(queueFingerprint).join('\n');
