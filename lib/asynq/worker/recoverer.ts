/**
 * asynq's recoverer: at start and then every minute, active tasks whose lease ran out more
 * than 30 s ago (slack for clock skew between hosts) are failed with
 * `asynq: task lease expired` — retried, or archived if their retries are used up — and
 * aggregation sets past their deadline go back to their groups. This is what makes a killed
 * server lose nothing: any live server of the queue picks its tasks up.
 */
import type { RedisClient } from '../redis-client';
import type { ResolvedConfig } from './config';
import { ErrLeaseExpired, errorText } from './errors';
import { every, type Loop } from './loop';
import { archive, retry } from './rdb/finish';
import { listLeaseExpired, reclaimStaleAggregationSets } from './rdb/recovery';
import { defaultRetryDelay } from './retry-delay';
import { newTask } from './task';

const CLOCK_SKEW_MS = 30_000;

/** One recovery pass over every queue of the server. */
export async function recover(redis: RedisClient, config: ResolvedConfig): Promise<void> {
  const { clock, logger } = config;
  const text = ErrLeaseExpired.message;
  for (const q of Object.keys(config.queues)) {
    const { msgs, corrupt } = await listLeaseExpired(redis, q, new Date(clock.now().getTime() - CLOCK_SKEW_MS));
    if (corrupt > 0) logger.warn(`recoverer: ${corrupt} lease-expired task(s) in queue ${q} have an undecodable msg`);
    for (const msg of msgs) {
      try {
        if (msg.retried >= msg.retry) {
          await archive(redis, msg, text, clock.now());
          continue;
        }
        const task = newTask(msg.type, msg.payload, msg.headers);
        let delay: number;
        try {
          delay = config.retryDelay(msg.retried, ErrLeaseExpired, task);
        } catch {
          delay = defaultRetryDelay(msg.retried, ErrLeaseExpired, task);
        }
        const now = clock.now();
        await retry(redis, msg, new Date(now.getTime() + delay * 1000), text, config.isFailure(ErrLeaseExpired), now);
      } catch (err) {
        logger.warn(`recoverer: could not recover task ${msg.id}: ${errorText(err)}`);
      }
    }
    await reclaimStaleAggregationSets(redis, q, clock.now());
  }
}

/** Starts the recovery loop (first pass at once, as asynq does). */
export function startRecoverer(redis: RedisClient, config: ResolvedConfig): Loop {
  return every(config.recovererIntervalMs, () => recover(redis, config), (err) => config.logger.error(`recoverer: ${String(err)}`));
}
