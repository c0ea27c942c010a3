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
import { renderLabels, type MetricFamily, type RenderedLabels, type Sample } from './exposition';

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

/** A queue's label, escaped once per scrape and shared by all of its series. */
type Labelled = { q: QueueGauges; label: RenderedLabels };

/**
 * Samples made as the family is written (see MetricFamily.samples), each time it is: the
 * families can be written more than once.
 */
const made = (samples: () => Generator<Sample>): Iterable<Sample> => ({ [Symbol.iterator]: samples });

/** One sample per queue. */
const perQueue = (queues: readonly Labelled[], value: (q: QueueGauges) => number): Iterable<Sample> =>
  made(function* () {
    for (const { q, label } of queues) yield { labels: label, value: value(q) };
  });

/** asynq_tasks_enqueued_total: one sample per queue and state. The state names are fixed words: no escaping needed. */
const byState = (queues: readonly Labelled[]): Iterable<Sample> =>
  made(function* () {
    for (const { q, label } of queues) for (const state of STATES) yield { labels: { text: `${label.text},state="${state}"` }, value: q[state] };
  });

/** asynq_queue_memory_usage_approx_bytes: only the queues whose memory use is known. */
const knownMemory = (queues: readonly Labelled[]): Iterable<Sample> =>
  made(function* () {
    for (const { q, label } of queues) if (q.memoryUsageBytes !== null) yield { labels: label, value: q.memoryUsageBytes };
  });

/**
 * Every queue metric family for `queues`, whose order the samples keep. A queue that could not
 * be read has no asynq_* series (zeros would read as an empty queue), only
 * asynqlens_queue_unreadable.
 */
export function queueFamilies(all: readonly QueueGauges[]): MetricFamily[] {
  const labelled = all.map((q) => ({ q, label: renderLabels([['queue', q.queue]]) }));
  const queues = labelled.filter(({ q }) => !q.problem);
  return [
    {
      name: 'asynq_tasks_enqueued_total',
      help: 'Number of tasks enqueued; broken down by queue and state.',
      type: 'gauge',
      samples: byState(queues),
    },
    { name: 'asynq_queue_size', help: 'Number of tasks in a queue', type: 'gauge', samples: perQueue(queues, (q) => q.size) },
    {
      name: 'asynq_queue_latency_seconds',
      help: 'Number of seconds the oldest pending task is waiting in pending state to be processed.',
      type: 'gauge',
      samples: perQueue(queues, (q) => q.latencySeconds),
    },
    {
      name: 'asynq_queue_memory_usage_approx_bytes',
      help: 'Number of memory used by a given queue (approximated number by sampling).',
      type: 'gauge',
      samples: knownMemory(queues),
    },
    {
      name: 'asynq_tasks_processed_total',
      help: 'Number of tasks processed (both succeeded and failed); broken down by queue',
      type: 'counter',
      samples: perQueue(queues, (q) => q.processedTotal),
    },
    {
      name: 'asynq_tasks_failed_total',
      help: 'Number of tasks failed; broken down by queue',
      type: 'counter',
      samples: perQueue(queues, (q) => q.failedTotal),
    },
    { name: 'asynq_queue_paused_total', help: 'Number of queues paused', type: 'gauge', samples: perQueue(queues, (q) => (q.paused ? 1 : 0)) },
    {
      name: 'asynqlens_queue_aggregating_tasks',
      help: 'Number of tasks waiting in aggregation groups (counted in asynq_queue_size, absent from asynq_tasks_enqueued_total); sampled when a queue has many groups.',
      type: 'gauge',
      samples: perQueue(queues, (q) => q.aggregating),
    },
    {
      name: 'asynqlens_queue_unreadable',
      help: 'Queues whose stats cannot be read (a key of the wrong type, a counter that is not a number, or on a Redis Cluster a name whose keys span hash slots); they have no asynq_* series.',
      type: 'gauge',
      samples: perQueue(labelled.filter(({ q }) => q.problem), () => 1),
    },
  ];
}
