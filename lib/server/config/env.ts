import 'server-only';
import { z } from 'zod';
import { isTimeZone } from '@asynqlens/asynq/time-zone';

/** A yes/no setting: 1/true or 0/false (unset = false). */
function flag(name: string) {
  return z
    .enum(['', '0', '1', 'true', 'false'], { error: `${name} must be 1/true or 0/false` })
    .default('')
    .transform((v) => v === '1' || v === 'true');
}

/** A URL whose scheme is redis:// or rediss:// and whose path, if any, is a database number. */
const redisUrl = z
  .string()
  .url('REDIS_URL must be a redis:// or rediss:// URL')
  .superRefine((text, ctx) => {
    // zod runs this after a failed .url() too; that failure is the one reported.
    if (!URL.canParse(text)) return;
    const url = new URL(text);
    if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
      ctx.addIssue({ code: 'custom', message: `the scheme must be redis:// or rediss://, got ${url.protocol}//` });
      return;
    }
    const db = url.pathname.replace(/^\//, '');
    if (db !== '' && !/^\d{1,5}$/.test(db)) ctx.addIssue({ code: 'custom', message: `the database "/${db}" must be a number` });
  });

/**
 * Configuration from the environment, checked once, each setting on its own; which Redis
 * deployment the settings describe together is redis/target.ts's to check. REDIS_URL carries
 * host, port, user, password and db (`redis://user:pass@host:6379/2`, `rediss://` for TLS).
 */
const envSchema = z.object({
  REDIS_URL: redisUrl.default('redis://127.0.0.1:6379/0'),
  ASYNQLENS_READ_ONLY: flag('ASYNQLENS_READ_ONLY'),
  ASYNQLENS_COMMAND_TIMEOUT_MS: z.coerce.number().int().positive().default(3000),
  /** How long one Redis read of a view is shared by every viewer (0 turns sharing off). */
  ASYNQLENS_SNAPSHOT_MS: z.coerce.number().int().nonnegative().default(1000),
  /**
   * Live snapshot streams (GET /api/snapshot/stream) held open at once by this process, and
   * distinct views among them (each view builds a snapshot every tick); past either, a new
   * stream is refused with a 503 `stream_limit` and the browser polls instead.
   */
  ASYNQLENS_STREAM_MAX_SUBSCRIBERS: z.coerce.number().int().positive().default(1000),
  ASYNQLENS_STREAM_MAX_VIEWS: z.coerce.number().int().positive().default(100),
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
  /**
   * The asynq servers' time zone (an IANA name): an archive counts asynq's 90 days in it, as
   * asynq counts them in its process' local zone.
   */
  ASYNQLENS_SERVER_TZ: z
    .string()
    .default('UTC')
    .superRefine((v, ctx) => {
      if (!isTimeZone(v)) ctx.addIssue({ code: 'custom', message: `unknown time zone "${v}": give an IANA name such as Europe/Paris, or UTC` });
    }),
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
