import { z } from 'zod';
import { healthSchema } from './servers';

/** GET /api/health (readiness): the fields the dashboard reads, plus what an operator's probe wants. */
export const healthProbeSchema = healthSchema.extend({
  status: z.literal('ok'),
  /** host:port/db, sentinel master or cluster seeds — never credentials. */
  redisAddress: z.string(),
  mode: z.enum(['standalone', 'sentinel', 'cluster']),
  /** Round trip of the probe's one command, in milliseconds. */
  latencyMs: z.number().nonnegative(),
});
export type HealthProbeDto = z.infer<typeof healthProbeSchema>;

/** GET /api/health/live (liveness): answered without touching Redis. */
export const livenessSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  uptimeSeconds: z.number().int().nonnegative(),
});
export type LivenessDto = z.infer<typeof livenessSchema>;
