/**
 * Creates the ioredis connection the core uses, tuned for a dashboard that shares Redis with
 * production workers: fail a request fast when Redis is gone instead of queueing it forever.
 */
import { Redis, type RedisOptions } from 'ioredis';

export interface ConnectOptions {
  /** `redis://[user:password@]host:port/db` or `rediss://` for TLS. */
  url: string;
  /** Milliseconds before a command counts as failed (default 5000). */
  commandTimeoutMs?: number;
  /** Extra ioredis options (TLS files, name, ...). */
  redisOptions?: RedisOptions;
}

/**
 * A lazily connecting client. `maxRetriesPerRequest: 1` makes a command issued while Redis is
 * down fail after one reconnect attempt (a few hundred ms) rather than after 20; the client
 * keeps reconnecting in the background, so requests succeed again as soon as Redis is back.
 */
export function createRedis({ url, commandTimeoutMs = 5000, redisOptions = {} }: ConnectOptions): Redis {
  return new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 3000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    ...redisOptions,
  });
}
