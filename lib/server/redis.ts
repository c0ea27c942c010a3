import 'server-only';
import type { Redis } from 'ioredis';
import { createInspector, createRedis, type Inspector } from '@/lib/asynq';
import { env } from './env';

/**
 * One Redis connection per process. Cached on globalThis so that hot reloads in development
 * reuse it instead of leaking a connection per edit.
 */
const g = globalThis as unknown as { asynqlensRedis?: Redis; asynqlensInspector?: Inspector };

export function getRedis(): Redis {
  if (!g.asynqlensRedis) {
    const { REDIS_URL, ASYNQLENS_COMMAND_TIMEOUT_MS } = env();
    g.asynqlensRedis = createRedis({ url: REDIS_URL, commandTimeoutMs: ASYNQLENS_COMMAND_TIMEOUT_MS });
    // Errors surface per request as 503s; without a listener ioredis would log each retry.
    g.asynqlensRedis.on('error', () => {});
  }
  return g.asynqlensRedis;
}

export function getInspector(): Inspector {
  g.asynqlensInspector ??= createInspector(getRedis());
  return g.asynqlensInspector;
}
