import { route } from '@/lib/server/http';
import { getLiveness, noStore } from '@/lib/server/services/health';

export const dynamic = 'force-dynamic';

const liveness = route({}, () => Promise.resolve(getLiveness()));

/** Liveness: 200 whenever the process answers; never touches Redis. */
export async function GET(...args: Parameters<typeof liveness>): Promise<Response> {
  return noStore(await liveness(...args));
}
