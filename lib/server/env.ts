import 'server-only';
import { z } from 'zod';

/**
 * Configuration from the environment, checked once. REDIS_URL carries host, port, user,
 * password and db (`redis://user:pass@host:6379/2`, `rediss://` for TLS).
 */
const envSchema = z.object({
  REDIS_URL: z.string().url('REDIS_URL must be a redis:// or rediss:// URL').default('redis://127.0.0.1:6379/0'),
  ASYNQLENS_READ_ONLY: z
    .enum(['', '0', '1', 'true', 'false'], { error: 'ASYNQLENS_READ_ONLY must be 1/true or 0/false' })
    .default('')
    .transform((v) => v === '1' || v === 'true'),
  ASYNQLENS_COMMAND_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  /** How long one Redis read of a view is shared by every viewer (0 turns sharing off). */
  ASYNQLENS_SNAPSHOT_MS: z.coerce.number().int().nonnegative().default(1000),
  /** Extra origins (comma-separated, e.g. a proxy's public URL) allowed to send mutations. */
  ASYNQLENS_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean)),
  /** JSON file of the task-type patterns a deployment registers, for the routing explainer. */
  ASYNQLENS_ROUTING_FILE: z.string().optional(),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export function env(): Env {
  cached ??= envSchema.parse(process.env);
  return cached;
}

/** host:port of the configured Redis, without credentials, for error messages. */
export function redisAddress(): string {
  const u = new URL(env().REDIS_URL);
  return `${u.hostname}:${u.port || '6379'}${u.pathname && u.pathname !== '/' ? u.pathname : ''}`;
}
