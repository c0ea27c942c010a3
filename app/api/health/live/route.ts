import { getLiveness } from '@/lib/server/services/health';

export const dynamic = 'force-dynamic';

/**
 * Liveness: 200 whenever the process answers. Not wrapped in route(): it reads no input and
 * must touch nothing (no Redis gate, no configuration), so a Redis outage never gets the
 * console restarted. Never cached, like every probe.
 */
export function GET(): Response {
  return Response.json(getLiveness(), { headers: { 'cache-control': 'no-store' } });
}
