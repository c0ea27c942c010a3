/**
 * The demo application: a shop's task server (our TypeScript server, asynq semantics) on five
 * queues, a periodic scheduler, client loops, a second worker that crashes now and then, and an
 * older release of the server still consuming `low` without one handler (old-release.ts).
 * Returns a stop function that shuts everything down in order.
 */
import type { Redis } from 'ioredis';
import { json, newTaskMessage } from '../../lib/asynq/testutil/factories';
import { seedActive } from '../../lib/asynq/testutil/seed';
import { CanceledError, ErrLeaseExpired, Server, defaultRetryDelay, type ServerConfig } from '../../lib/asynq/worker';
import { Scheduler } from '../../lib/asynq/worker/scheduler/scheduler';
import { startCrashyWorker } from './crashy';
import { demoMux } from './handlers';
import { startOldRelease } from './old-release';
import { startProducers, type ClientStats } from './producers';

export const DEMO_QUEUES = { critical: 6, default: 3, webhooks: 2, low: 1, notifications: 1 };

export interface DemoApp {
  server: Server;
  stats: ClientStats;
  stop(): Promise<void>;
}

export async function startDemoApp(redis: Redis, redisUrl: string): Promise<DemoApp> {
  // Left behind by a worker that died before the demo started: its lease ran out two minutes
  // ago, so the first recoverer pass fails it with `asynq: task lease expired` at once.
  const now = Math.floor(Date.now() / 1000);
  for (let i = 0; i < 2; i++) {
    await seedActive(redis, newTaskMessage({ type: 'video:transcode', queue: 'low', retry: 3, payload: json({ videoId: 90 + i, preset: '4k' }) }), now - 120);
  }
  const errors = { info: () => {}, warn: () => {}, error: (m: string) => console.error(`  demo server: ${m}`) };
  const config: ServerConfig = {
    concurrency: 8,
    queues: DEMO_QUEUES,
    // asynq's default delay starts at 15–45 s and grows to days; a demo must move faster.
    // Production servers keep the default. A canceled transcode (the user gave up) and one
    // whose worker died wait a minute, which also keeps those failure kinds on screen.
    retryDelay: (n, err, task) =>
      err instanceof CanceledError || err === ErrLeaseExpired ? 60 : Math.min(defaultRetryDelay(n, err, task), 3 + 4 * n + Math.floor(Math.random() * 5)),
    delayedTaskCheckIntervalMs: 2000,
    recovererIntervalMs: 15_000,
    groupAggregator: (group, tasks) => ({
      type: 'notify:batch',
      payload: Buffer.from(JSON.stringify({ group, events: tasks.map((t) => JSON.parse(Buffer.from(t.payload).toString() || 'null') as unknown) })),
      options: { retentionSeconds: 600 },
    }),
    groupGracePeriodMs: 10_000,
    groupMaxSize: 8,
    groupMaxDelayMs: 30_000,
    logger: errors,
  };
  const server = new Server(redis, config);
  await server.start(demoMux(redis));

  const scheduler = new Scheduler(redis, { logger: errors });
  scheduler.register({ everySeconds: 10, task: { type: 'metrics:rollup', payload: Buffer.from('{"window":"1m"}') }, options: { queue: 'low', maxRetry: 2 } });
  scheduler.register({ everySeconds: 30, task: { type: 'cleanup:sessions', payload: null }, options: { timeoutSeconds: 60 } });
  scheduler.start();

  const producers = startProducers(redis);
  const crashy = startCrashyWorker(redisUrl);
  // DEMO_OLD_RELEASE_SECONDS (default 600): how long the older release keeps failing rollups.
  const oldRelease = startOldRelease(redis, { ...config, concurrency: 2, queues: { low: 1 }, logger: { ...errors, error: () => {} } }, Number(process.env.DEMO_OLD_RELEASE_SECONDS ?? 600));

  return {
    server,
    stats: producers.stats,
    async stop() {
      producers.stop();
      crashy.stop();
      await oldRelease.stop();
      await scheduler.shutdown().catch(() => {});
      await server.shutdown();
    },
  };
}
