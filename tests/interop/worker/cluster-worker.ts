/**
 * Our side of `cluster-process` (tests/go/cluster.go): a mux with the Go handlers' names,
 * errors and results (process.go's processMux), the same aggregator, grace period, retry delay
 * and forwarder period, plus a middleware that records every invocation as Go's
 * recordInvocation prints it — so a Go Inspector dump of what our server did on a cluster reads
 * like one of what Go's server does there.
 */
import type { Cluster } from 'ioredis';
import * as k from '@/lib/asynq/keys';
import { ServeMux, type ServerConfig } from '@/lib/asynq/worker';

export interface Invocation {
  id: string;
  queue: string;
  type: string;
  payload: string;
  headers: Record<string, string>;
  retryCount: number;
  receivedAtMs: number;
}

/** process.go's processMux, recording into `log`; `slow:` runs until the server gives up on it. */
export function clusterMux(log: Invocation[]): ServeMux {
  return new ServeMux()
    .use((next) => ({
      processTask: (ctx, task) => {
        log.push({
          id: ctx.taskId, queue: ctx.queue, type: task.type, payload: Buffer.from(task.payload).toString(),
          headers: { ...task.headers }, retryCount: ctx.retryCount, receivedAtMs: Date.now(),
        });
        return next.processTask(ctx, task);
      },
    }))
    .handleFunc('ok:', () => {})
    .handleFunc('result:', async (_c, t) => void (await t.resultWriter!.write(Buffer.concat([Buffer.from('done:'), t.payload]))))
    .handleFunc('fail:', (_c, t) => {
      throw new Error(`fail: ${t.type}`);
    })
    .handleFunc('slow:', (c) => new Promise<void>((_, reject) => c.signal.addEventListener('abort', () => reject(c.signal.reason as Error))))
    .handleFunc('aggregated', () => {});
}

/** What the server logged, by level: on a cluster a CROSSSLOT in a loop shows up only here. */
export type ServerLogs = Record<'info' | 'warn' | 'error', string[]>;

/**
 * cluster-process's asynq.Config: 1 s retry delay and forwarder period, aggregateGroup with a
 * 1 s grace period, 1 s shutdown timeout. Beats every second (asynq: 5 s) so Go's Inspector
 * sees the in-flight tasks within a short run, and the janitor and recoverer run every second
 * too (asynq: 8 s, 1 min), so each makes several passes over the cluster.
 */
export function clusterConfig(queues: string[], logs: ServerLogs): ServerConfig {
  return {
    concurrency: 8,
    queues: Object.fromEntries(queues.map((q) => [q, 1])),
    retryDelay: () => 1,
    delayedTaskCheckIntervalMs: 1000,
    groupAggregator: (_group, tasks) => ({ type: 'aggregated', payload: Buffer.from(JSON.stringify(tasks.map((t) => Buffer.from(t.payload).toString()))) }),
    groupGracePeriodMs: 1000,
    shutdownTimeoutMs: 1000,
    heartbeatIntervalMs: 1000,
    janitorIntervalMs: 1000,
    recovererIntervalMs: 1000,
    taskCheckIntervalMs: 200,
    logger: { info: (m) => logs.info.push(m), warn: (m) => logs.warn.push(m), error: (m) => logs.error.push(m) },
  };
}

export interface QueueKeys {
  pending: number;
  active: string[];
  lease: string[];
  scheduled: number;
  retry: number;
  archived: number;
  completed: number;
  groups: number;
  aggregationSets: number;
}

/** The queue's structures, read in one pipeline on the queue's slot (one round trip). */
export async function queueKeys(redis: Cluster, q: string): Promise<QueueKeys> {
  const r = (await redis
    .pipeline()
    .llen(k.pendingKey(q))
    .lrange(k.activeKey(q), 0, -1)
    .zrange(k.leaseKey(q), 0, -1)
    .zcard(k.scheduledKey(q))
    .zcard(k.retryKey(q))
    .zcard(k.archivedKey(q))
    .zcard(k.completedKey(q))
    .scard(k.allGroups(q))
    .zcard(k.allAggregationSets(q))
    .exec())!.map(([err, v]) => {
    if (err) throw err;
    return v;
  });
  const n = (i: number) => r[i] as number;
  return {
    pending: n(0), active: (r[1] as string[]).sort(), lease: (r[2] as string[]).sort(), scheduled: n(3), retry: n(4),
    archived: n(5), completed: n(6), groups: n(7), aggregationSets: n(8),
  };
}
