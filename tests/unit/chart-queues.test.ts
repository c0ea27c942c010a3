/**
 * The overview chart's queues: the busiest, or the one chosen; never a queue the stats read
 * could not read (its history read would fail the whole chart).
 */
import { describe, expect, it } from 'vitest';
import { chartQueues, MAX_AGGREGATED } from '@/components/overview/combine-history';
import type { QueueStatsDto } from '@/lib/contract/queues';

const stats = (queue: string, size: number, problem: string | null = null): QueueStatsDto => ({
  queue, paused: false, pausedSince: null, size, pending: size, active: 0, scheduled: 0, retry: 0, archived: 0,
  completed: 0, aggregating: 0, aggregatingExact: true, groups: 0, processed: 0, failed: 0, processedTotal: 0,
  failedTotal: 0, latencySeconds: 0, memoryUsageBytes: null, timestamp: '2026-11-30T00:00:00Z', problem, unreadable: null,
});

describe('chartQueues', () => {
  const queues = [stats('small', 1), stats('}broken', 0, 'on Redis Cluster a queue name must not start with "}"'), stats('big', 9)];

  it('sums the busiest readable queues, leaving unreadable ones out', () => {
    expect(chartQueues(queues, '').map((q) => q.queue)).toEqual(['big', 'small']);
    const many = Array.from({ length: MAX_AGGREGATED + 5 }, (_, i) => stats(`q${i}`, i));
    expect(chartQueues(many, '')).toHaveLength(MAX_AGGREGATED);
  });

  it('charts the chosen queue, unless it cannot be read', () => {
    expect(chartQueues(queues, 'small').map((q) => q.queue)).toEqual(['small']);
    expect(chartQueues(queues, '}broken')).toEqual([]);
  });
});
