import 'server-only';
import { z } from 'zod';
import { describeTarget } from '@/lib/asynq/connection';
import { redisTarget } from '../redis/target';

/** A yes/no setting: 1/true or 0/false (unset = false). */
function flag(name: string) {
  return z
    .enum(['', '0', '1', 'true', 'false'], { error: `${name} must be 1/true or 0/false` })
    .default('')
    .transform((v) => v === '1' || v === 'true');
}

/**
 * Configuration from the environment, checked once. REDIS_URL carries host, port, user,
 * password and db (`redis://user:pass@host:6379/2`, `rediss://` for TLS).
 */
const envSchema = z.object({
  REDIS_URL: z.string().url('REDIS_URL must be a redis:// or rediss:// URL').default('redis://127.0.0.1:6379/0'),
  ASYNQLENS_READ_ONLY: flag('ASYNQLENS_READ_ONLY'),
  ASYNQLENS_COMMAND_TIMEOUT_MS: z.coerce.number().int().positive().default(3000),
  /** How long one Redis read of a view is shared by every viewer (0 turns sharing off). */
  ASYNQLENS_SNAPSHOT_MS: z.coerce.number().int().nonnegative().default(1000),
  /** Extra origins (comma-separated, e.g. a proxy's public URL) allowed to send mutations. */
  ASYNQLENS_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean)),
  /** JSON file of the task-type patterns a deployment registers, for the routing explainer. */
  ASYNQLENS_ROUTING_FILE: z.string().optional(),
  /** Sentinel: `host:port` list of sentinels and the master's name; REDIS_URL then gives credentials and db. */
  ASYNQLENS_REDIS_SENTINELS: z.string().default(''),
  ASYNQLENS_REDIS_SENTINEL_MASTER: z.string().default(''),
  ASYNQLENS_REDIS_SENTINEL_USERNAME: z.string().optional(),
  ASYNQLENS_REDIS_SENTINEL_PASSWORD: z.string().optional(),
  /** Cluster: `host:port` list of seed nodes; REDIS_URL then gives credentials. */
  ASYNQLENS_REDIS_CLUSTER_NODES: z.string().default(''),
  /** TLS (on with rediss:// or any of these): CA, client certificate and key files, SNI name. */
  ASYNQLENS_REDIS_TLS_CA_FILE: z.string().optional(),
  ASYNQLENS_REDIS_TLS_CERT_FILE: z.string().optional(),
  ASYNQLENS_REDIS_TLS_KEY_FILE: z.string().optional(),
  ASYNQLENS_REDIS_TLS_SERVERNAME: z.string().optional(),
  ASYNQLENS_REDIS_TLS_INSECURE: flag('ASYNQLENS_REDIS_TLS_INSECURE'),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${issue?.path.join('.') ?? 'environment'}: ${issue?.message ?? 'invalid'}`);
  }
  cached = parsed.data;
  return cached;
}

/** Where the configured Redis is, without credentials, for error messages and health checks. */
export function redisAddress(): string {
  return describeTarget(redisTarget());
}
