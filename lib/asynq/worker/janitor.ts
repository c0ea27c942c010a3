/**
 * asynq's janitor: every 8 s, completed tasks whose retention ended are deleted, 100 per
 * script call so no call blocks Redis for long. Like the forwarder, the first pass runs at start.
 */
import type { RedisClient } from '../redis-client';
import type { ResolvedConfig } from './config';
import { every, type Loop } from './loop';
import { deleteExpiredCompleted } from './rdb/delayed';

/** Starts the janitor loop; stop it to end. */
export function startJanitor(redis: RedisClient, config: ResolvedConfig): Loop {
  return every(
    config.janitorIntervalMs,
    async () => {
      for (const q of Object.keys(config.queues)) {
        await deleteExpiredCompleted(redis, q, config.janitorBatchSize, config.clock.now());
      }
    },
    (err) => config.logger.error(`janitor: ${String(err)}`),
  );
}
