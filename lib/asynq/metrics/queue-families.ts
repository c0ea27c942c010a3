/**
 * asynq's queue metrics, under the names, help texts, types and labels of asynq's own exporter
 * (github.com/hibiken/asynq/x/metrics, QueueMetricsCollector), so dashboards and alerts written
 * for it work unchanged. Values come from one stats read of every queue, not from asynq's
 * Queues() + GetQueueInfo(q) per queue.
 *
 * One difference: asynq_queue_memory_usage_approx_bytes is written only for a queue whose
 * memory use is known, and the stats read never knows it — it would take MEMORY USAGE over
 * sampled task hashes of every queue, O(samples) Redis work per queue per scrape, which is the
 * cost this exporter exists to avoid. A missing series, unlike a 0, cannot be mistaken for a
 * measurement.
 */
import type { QueueStats } from '../types';
import { renderLabels, type MetricFamily, type Series } from './exposition';

/**
 * What the families need of one queue's stats: the inspector's counts, with the latency in
 * seconds as the API's DTO carries it (the DTO fits as it is).
 */
export type QueueGauges = Pick<
  QueueStats,
  'queue' | 'paused' | 'size' | 'pending' | 'active' | 'scheduled' | 'retry' | 'archived' | 'completed' | 'aggregating' | 'processedTotal' | 'failedTotal' | 'memoryUsageBytes'
> & {
  latencySeconds: number;
  /** Why the queue's stats could not be read (malformed data, or a Redis Cluster queue whose keys span slots). */
  problem?: string | null;
};

/**
 * The states of asynq_tasks_enqueued_total, in the order Go's registry writes them (sorted by
 * label value). asynq has no `aggregating` value here; see asynqlens_queue_aggregating_tasks.
 */
const STATES = ['active', 'archived', 'completed', 'pending', 'retry', 'scheduled'] as const;

/**
 * One value per queue, beside the queues' labels (each escaped once per scrape and shared by
 * every family): the columns a family is written from (exposition.ts, Series).
 */
function perQueue(queues: readonly QueueGauges[], labels: readonly string[], value: (q: QueueGauges) => number): Series {
  const values = new Float64Array(queues.length);
  for (let i = 0; i < queues.length; i++) values[i] = value(queues[i]!);
  return { labels, values };
}

/** asynq_tasks_enqueued_total: one sample per queue and state. The state names are fixed words: no escaping needed. */
function byState(queues: readonly QueueGauges[], labels: readonly string[]): Series {
  const out: string[] = [];
  const values = new Float64Array(queues.length * STATES.length);
  for (let i = 0; i < queues.length; i++) {
    for (let j = 0; j < STATES.length; j++) {
      const state = STATES[j]!;
      out.push(`${labels[i]},state="${state}"`);
      values[i * STATES.length + j] = queues[i]![state];
    }
  }
  return { labels: out, values };
}

/** asynq_queue_memory_usage_approx_bytes: only the queues whose memory use is known. */
function knownMemory(queues: readonly QueueGauges[], labels: readonly string[]): Series {
  const known: string[] = [];
  const values: number[] = [];
  queues.forEach((q, i) => {
    if (q.memoryUsageBytes === null) return;
    known.push(labels[i]!);
    values.push(q.memoryUsageBytes);
  });
  return { labels: known, values };
}

/**
 * Every queue metric family for `queues`, whose order the samples keep. A queue that could not
 * be read has no asynq_* series (zeros would read as an empty queue), only
 * asynqlens_queue_unreadable.
 */
export function queueFamilies(all: readonly QueueGauges[]): MetricFamily[] {
  const queues = all.filter((q) => !q.problem);
  const unreadable = all.filter((q) => q.problem);
  const label = (q: QueueGauges) => renderLabels([['queue', q.queue]]).text;
  const labels = queues.map(label);
  const perQ = (value: (q: QueueGauges) => number) => perQueue(queues, labels, value);
  return [
    {
      name: 'asynq_tasks_enqueued_total',
      help: 'Number of tasks enqueued; broken down by queue and state.',
      type: 'gauge',
      samples: byState(queues, labels),
    },
    { name: 'asynq_queue_size', help: 'Number of tasks in a queue', type: 'gauge', samples: perQ((q) => q.size) },
    {
      name: 'asynq_queue_latency_seconds',
      help: 'Number of seconds the oldest pending task is waiting in pending state to be processed.',
      type: 'gauge',
      samples: perQ((q) => q.latencySeconds),
    },
    {
      name: 'asynq_queue_memory_usage_approx_bytes',
      help: 'Number of memory used by a given queue (approximated number by sampling).',
      type: 'gauge',
      samples: knownMemory(queues, labels),
    },
    {
      name: 'asynq_tasks_processed_total',
      help: 'Number of tasks processed (both succeeded and failed); broken down by queue',
      type: 'counter',
      samples: perQ((q) => q.processedTotal),
    },
    {
      name: 'asynq_tasks_failed_total',
      help: 'Number of tasks failed; broken down by queue',
      type: 'counter',
      samples: perQ((q) => q.failedTotal),
    },
    { name: 'asynq_queue_paused_total', help: 'Number of queues paused', type: 'gauge', samples: perQ((q) => (q.paused ? 1 : 0)) },
    {
      name: 'asynqlens_queue_aggregating_tasks',
      help: 'Number of tasks waiting in aggregation groups (counted in asynq_queue_size, absent from asynq_tasks_enqueued_total); sampled when a queue has many groups.',
      type: 'gauge',
      samples: perQ((q) => q.aggregating),
    },
    {
      name: 'asynqlens_queue_unreadable',
      help: 'Queues whose stats cannot be read (a key of the wrong type, a counter that is not a number, or on a Redis Cluster a name whose keys span hash slots); they have no asynq_* series.',
      type: 'gauge',
      samples: perQueue(unreadable, unreadable.map(label), () => 1),
    },
  ];
}
