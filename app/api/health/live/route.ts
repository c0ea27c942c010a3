import { getLiveness, noStore } from '@/lib/server/services/health';

export const dynamic = 'force-dynamic';

/**
 * Liveness: 200 whenever the process answers. Not wrapped in route(), whose connection gate
 * would touch Redis: a Redis outage must never get the console restarted.
 */
export function GET(): Response {
  return noStore(Response.json(getLiveness()));
}
