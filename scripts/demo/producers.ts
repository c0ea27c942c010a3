/**
 * The demo shop's clients: loops that enqueue what a real application would, including its
 * classic mistakes — a task type no worker handles yet (deploy order), a "unique" report whose
 * payload carries a timestamp (so every copy gets its own lock), webhook events re-delivered
 * under the same TaskID — plus cancellations of long transcodes.
 */
import type { Redis } from 'ioredis';
import { enqueueTask } from '../../lib/asynq/client/enqueue';
import type { EnqueueOptions } from '../../lib/asynq/client/options';
import { isAsynqError } from '../../lib/asynq/errors';
import { listServers } from '../../lib/asynq/inspector/servers';
import { cancelTask } from '../../lib/asynq/mutations/task-actions';

export interface ClientStats {
  enqueued: number;
  duplicates: number;
  idConflicts: number;
  cancels: number;
}

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const TENANTS = ['acme', 'globex', 'initech'] as const;

export function startProducers(redis: Redis): { stats: ClientStats; stop(): void } {
  const stats: ClientStats = { enqueued: 0, duplicates: 0, idConflicts: 0, cancels: 0 };
  let user = 5000;
  let event = 0;
  const timers: NodeJS.Timeout[] = [];

  const enqueue = async (type: string, payload: Buffer, options: EnqueueOptions) => {
    try {
      await enqueueTask(redis, { type, payload }, options, new Date());
      stats.enqueued++;
    } catch (err) {
      if (isAsynqError(err, 'duplicate_task')) stats.duplicates++;
      else if (isAsynqError(err, 'task_id_conflict')) stats.idConflicts++;
      else throw err;
    }
  };
  const every = (ms: number, job: () => Promise<unknown>) => {
    timers.push(setInterval(() => void job().catch((err: unknown) => console.error(`  demo client: ${String(err)}`)), ms));
  };

  every(1000, () => enqueue('email:welcome', json({ userId: ++user }), {}));
  every(3000, () => enqueue('email:digest', json({ userId: user - 10, week: 48 }), { queue: 'default' }));
  every(1800, () => enqueue('image:resize', json({ imageId: user, large: Math.random() < 0.25 }), { queue: 'critical', maxRetry: 4, timeoutSeconds: 1 }));
  // Deploy-order mistake: clients already send report:new, no worker knows it yet.
  every(5000, () => enqueue('report:new', json({ reportId: user }), { maxRetry: 3 }));
  // "Unique" by day, but the timestamp in the payload makes every copy unique…
  every(4000, () => enqueue('report:daily', json({ day: new Date().toISOString().slice(0, 10), requestedAt: Date.now() }), { uniqueTtlSeconds: 600, retentionSeconds: 3600 }));
  // …while the correct form is refused as a duplicate while the lock lives.
  every(4000, () => enqueue('report:daily', json({ day: new Date().toISOString().slice(0, 10) }), { uniqueTtlSeconds: 600, retentionSeconds: 3600 }));
  // Unique reminders: one per user per 20 s, sent later; the ones that fail keep (or lose) their lock.
  every(2500, () => enqueue('email:reminder', json({ userId: 1 + Math.floor(Math.random() * 6) }), { uniqueTtlSeconds: 20, processInSeconds: 15 + Math.floor(Math.random() * 45), maxRetry: 5 }));
  every(2000, () => enqueue('sync:inventory', json({ sku: pick(['SKU-1', 'SKU-2']) }), { uniqueTtlSeconds: 10, maxRetry: 5 }));
  // One TaskID per webhook event; a quarter are re-deliveries of a recent event.
  every(1500, () => {
    const id = Math.random() < 0.25 && event > 0 ? event - Math.floor(Math.random() * Math.min(event, 5)) : ++event;
    return enqueue('webhook:deliver', json({ url: `https://hooks.example.test/${pick(TENANTS)}`, event: id }), { queue: 'webhooks', taskId: `evt_${id}`, retentionSeconds: 120, maxRetry: 6 });
  });
  every(900, () => enqueue('notify:event', json({ kind: pick(['comment', 'like', 'follow']), user }), { queue: 'notifications', group: `tenant-${pick(TENANTS)}` }));
  every(7000, () => enqueue('video:transcode', json({ videoId: user, preset: pick(['720p', '1080p', '4k']) }), { queue: 'low', maxRetry: 3 }));
  // Now and then a user gives up on a transcode: cancel one that a live server is running
  // (an orphan of the crashed worker has nobody left to cancel it).
  every(12_000, async () => {
    const running = (await listServers(redis, new Date())).flatMap((s) => s.workers).filter((w) => w.taskType === 'video:transcode');
    if (running.length === 0) return;
    try {
      await cancelTask(redis, 'low', pick(running).taskId);
      stats.cancels++;
    } catch (err) {
      // The worker list is as old as the server's last heartbeat (up to 5 s): the transcode may
      // have finished (gone) or failed (retry) since, and then there is nothing to cancel.
      if (!isAsynqError(err, 'task_not_found') && !isAsynqError(err, 'failed_precondition')) throw err;
    }
  });

  return {
    stats,
    stop() {
      for (const t of timers) clearInterval(t);
    },
  };
}
