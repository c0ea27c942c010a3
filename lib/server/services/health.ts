import 'server-only';
import type { HealthProbeDto, LivenessDto } from '@/lib/contract/health';
import { connectNow } from '@asynqlens/asynq/redis';
import pkg from '@/package.json' with { type: 'json' };
import { HttpError } from '../http/errors';
import { env } from '../config/env';
import { redisAddress } from '../redis/target';
import { getRedis, lastConnectionError, redisMode } from '../redis/client';
import { classifyRedisFailure, describeFailure } from '../redis/failure';

export const APP_VERSION: string = pkg.version;

/**
 * How long readiness waits for Redis. Deliberately short and apart from the command timeout
 * (ASYNQLENS_COMMAND_TIMEOUT_MS, 5 s by default): an orchestrator's probe has its own deadline,
 * and a Redis that needs a second to answer INFO is not ready to serve the dashboard.
 */
export const PROBE_TIMEOUT_MS = 1000;

/** Liveness: the process answers. Touches nothing else, so a Redis outage never restarts it. */
export function getLiveness(): LivenessDto {
  return { status: 'ok', version: APP_VERSION, uptimeSeconds: Math.floor(process.uptime()) };
}

let inFlight: Promise<HealthProbeDto> | undefined;

/**
 * Readiness: one round trip (INFO server — O(1), no keys touched, and it carries the version),
 * answered within PROBE_TIMEOUT_MS or a 503 `redis_unavailable` naming the address.
 * Concurrent probes share the one in flight; each new probe after it reads Redis afresh (no
 * shared snapshot: a probe reports now, not a second ago).
 */
export function getHealth(): Promise<HealthProbeDto> {
  inFlight ??= probe().finally(() => (inFlight = undefined));
  return inFlight;
}

async function probe(): Promise<HealthProbeDto> {
  const address = redisAddress();
  const mode = redisMode();
  const started = performance.now();
  let info: string;
  try {
    const redis = getRedis();
    // A connection between attempts reconnects now rather than after its backoff; the deadline
    // covers that wait too.
    info = await withTimeout(connectNow(redis).then(() => redis.info('server')), PROBE_TIMEOUT_MS);
  } catch (err) {
    const reason = err instanceof ProbeTimeout ? 'stalled' : 'unreachable';
    throw new HttpError(503, 'redis_unavailable', `Redis at ${address} is ${describe(err)}`, { reason, redisAddress: address, mode });
  }
  return {
    status: 'ok',
    redis: 'ok',
    redisVersion: /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown',
    redisAddress: address,
    mode,
    latencyMs: Math.round((performance.now() - started) * 1000) / 1000,
    version: APP_VERSION,
    readOnly: env().ASYNQLENS_READ_ONLY,
  };
}

class ProbeTimeout extends Error {}

/** In the words the API's other 503s use (why a connection failed, not ioredis' wording). */
function describe(err: unknown): string {
  if (err instanceof ProbeTimeout) return `stalled: ${err.message}`;
  const kind = classifyRedisFailure(err);
  if (kind && err instanceof Error) return describeFailure(kind, err, PROBE_TIMEOUT_MS, lastConnectionError());
  return `unreachable: ${err instanceof Error ? err.message : String(err)}`;
}

/** `read`, or a ProbeTimeout after `ms`; the command itself is left to finish or fail on its own. */
async function withTimeout<T>(read: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([read, late]);
  } finally {
    clearTimeout(timer);
  }
}
