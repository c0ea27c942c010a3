import { route } from '@/lib/server/http/route';
import { getHealth } from '@/lib/server/services/health';

export const dynamic = 'force-dynamic';

/**
 * Readiness: 200 when Redis answers within a second, else 503 `redis_unavailable`. Without
 * route()'s Redis gate: the probe keeps its own deadline (the gate may wait longer for a
 * connect in progress). A public path, so nobody needs to sign in.
 */
export const GET = route({ redisGate: false, noStore: true }, () => getHealth());
