import { toErrorResponse } from '@/lib/server/http/errors';
import { getHealth, noStore } from '@/lib/server/services/health';

export const dynamic = 'force-dynamic';

/**
 * Readiness: 200 when Redis answers within a second, else 503 `redis_unavailable`. Not wrapped
 * in route(): the probe keeps its own deadline (route()'s connection gate may wait longer for
 * a connect in progress), and a public read with no input has nothing else for it to check.
 */
export async function GET(): Promise<Response> {
  try {
    return noStore(Response.json(await getHealth()));
  } catch (err) {
    return noStore(toErrorResponse(err));
  }
}
