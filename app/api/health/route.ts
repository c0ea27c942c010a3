import { route } from '@/lib/server/http';
import { getHealth, noStore } from '@/lib/server/services/health';

export const dynamic = 'force-dynamic';

const readiness = route({}, () => getHealth());

/** Readiness: 200 when Redis answers within a second, else 503 `redis_unavailable`. */
export async function GET(...args: Parameters<typeof readiness>): Promise<Response> {
  return noStore(await readiness(...args));
}
