/**
 * asynq's forwarder: every 5 s, due scheduled and retry tasks of the server's queues become
 * pending (or go back to their aggregation group). Servers sharing a queue may all do this;
 * the script moves each task once, so it is safe, and the busiest server does not stall it.
 * The first pass runs at start (asynq waits one interval), so tasks that fell due while no
 * server ran move at once.
 */
import type { RedisClient } from '../redis-client';
import type { ResolvedConfig } from './config';
import { every, type Loop } from './loop';
import { forwardIfReady } from './rdb/delayed';

/** Starts the forwarding loop; stop it to end. */
export function startForwarder(redis: RedisClient, config: ResolvedConfig): Loop {
  return every(
    config.delayedTaskCheckIntervalMs,
    async () => {
      for (const q of Object.keys(config.queues)) await forwardIfReady(redis, q, config.clock.now());
    },
    (err) => config.logger.error(`forwarder: ${String(err)}`),
  );
}
