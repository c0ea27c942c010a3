import { route } from '@/lib/server/http/route';
import { getLiveness } from '@/lib/server/services/health';

export const dynamic = 'force-dynamic';

/**
 * Liveness: 200 whenever the process answers. No Redis gate and nothing read from Redis, so a
 * Redis outage never gets the console restarted; a public path, so no identity is asked;
 * route() still applies the Host rule and the security headers, as on every answer. Never
 * cached, like every probe.
 */
export const GET = route({ noStore: true, redisGate: false }, () => getLiveness());
