/**
 * What Client and Inspector accept as their connection, as Go's NewClient and NewInspector take
 * a RedisConnOpt: a connection the caller owns (used, never closed), or a URL they open and
 * close themselves.
 */
import type { RedisClient } from './redis-client';
import { createRedis, type ConnectOptions } from './redis';

export type RedisConnection = RedisClient | string | ConnectOptions;

/** The client to use and whether `close()` should quit it. Opening is lazy: no I/O here. */
export function openConnection(conn: RedisConnection): { redis: RedisClient; owned: boolean } {
  if (typeof conn === 'string') return { redis: createRedis({ url: conn }), owned: true };
  if ('url' in conn && typeof conn.url === 'string') return { redis: createRedis(conn), owned: true };
  return { redis: conn as RedisClient, owned: false };
}

/** Quits a connection opened by {@link openConnection}; a caller's own is left open. */
export async function closeConnection({ redis, owned }: { redis: RedisClient; owned: boolean }): Promise<void> {
  if (owned) await redis.quit();
}
